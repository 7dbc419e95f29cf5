// The project's layering, enforced by lint (docs/ARCHITECTURE.md, "Floors"):
// - layers/floors: a module imports only from its own floor or lower ones; a feature never imports
//   another feature (nor the IdP a feature, nor a feature the IdP).
// - layers/no-cycle: no import cycle between modules (type-only imports aside: they vanish at run time).
// - layers/sql-in-owners: SQL is built only in the table owners (and migrations).
// Paths are resolved from the importing file; bare package names other than @pra/* are not checked.
import fs from 'node:fs';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');
const rel = (file) => path.relative(repo, file).split(path.sep).join('/');

/**
 * Floors per app, lowest first. A path matches the first floor whose prefix it starts with;
 * `feature: true` marks floors whose direct subfolders are separate features.
 */
const apps = [
  {
    root: 'apps/server/src/',
    floors: [
      { name: 'platform', prefixes: ['platform/', 'config.ts', 'migrations/'] },
      { name: 'store', prefixes: ['store/'] },
      { name: 'identity', prefixes: ['identity/'] },
      { name: 'policies', prefixes: ['policies/'] },
      { name: 'http', prefixes: ['http/'] },
      { name: 'features', prefixes: ['features/', 'idp/'], feature: true },
      { name: 'entry', prefixes: [''] },
    ],
  },
  {
    root: 'apps/web/src/',
    floors: [
      { name: 'api', prefixes: ['api/'] },
      { name: 'lib', prefixes: ['lib/'] },
      { name: 'components', prefixes: ['components/', 'styles/'] },
      { name: 'features', prefixes: ['features/'], feature: true },
      { name: 'app', prefixes: ['app/', 'test/'] },
      { name: 'entry', prefixes: [''] },
    ],
  },
];

/** Where a repo-relative path sits: its app, floor index and (for features) which feature. */
export function placeOf(repoPath) {
  for (const app of apps) {
    if (!repoPath.startsWith(app.root)) continue;
    const inner = repoPath.slice(app.root.length);
    const index = app.floors.findIndex((f) => f.prefixes.some((p) => inner.startsWith(p)));
    const floor = app.floors[index];
    const segments = inner.split('/');
    const unit = !floor.feature
      ? floor.name
      : segments[0] === 'features'
        ? segments.slice(0, 2).join('/')
        : segments[0];
    return { app: app.root, index, floor: floor.name, unit, feature: Boolean(floor.feature) };
  }
  return null;
}

/** Why `from` may not import `to` (repo-relative paths), or null when it may. */
export function floorViolation(from, to) {
  // A test may use its app's test support, and may start the whole app (any floor above its own).
  const isTest = /\.test\.tsx?$/.test(from);
  if (isTest && /^apps\/[^/]+\/(src\/)?test\//.test(to)) return null;
  const a = placeOf(from);
  const b = placeOf(to);
  if (!a || !b) return null;
  if (a.app !== b.app) return `${a.app} imports ${b.app}: apps talk through @pra/contracts only`;
  if (b.index > a.index && !isTest) return `the ${a.floor} floor imports the higher ${b.floor} floor (${to})`;
  if (a.feature && b.feature && a.unit !== b.unit) {
    return `${a.unit} imports ${b.unit}: a feature reaches another only through a lower floor`;
  }
  return null;
}

const extensions = ['.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'];
/** The file a relative specifier names, or null (a stylesheet, an asset, or nothing). */
export function resolveRelative(fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec);
  if (/\.(ts|tsx|js|mjs)$/.test(base) && fs.existsSync(base)) return base;
  for (const ext of extensions) if (fs.existsSync(base + ext)) return base + ext;
  return null;
}

const importPattern =
  /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;
const graph = new Map();
/** The files a file imports at run time (relative, non-type imports), read from disk once. */
function runtimeImports(file) {
  let out = graph.get(file);
  if (out) return out;
  out = [];
  graph.set(file, out);
  let source = '';
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  for (const m of source.matchAll(importPattern)) {
    if (m[2]) continue; // import type / export type
    const target = resolveRelative(file, m[3] ?? m[4]);
    if (target) out.push(target);
  }
  return out;
}

/** A cycle through `start` reached from its import of `first`, as a list of files, or null. */
export function cycleThrough(start, first) {
  const seen = new Set();
  const stack = [[first, [start, first]]];
  while (stack.length) {
    const [file, trail] = stack.pop();
    if (file === start) return trail;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of runtimeImports(file)) stack.push([next, [...trail, next]]);
  }
  return null;
}

function importSpecs(context, visit) {
  const check = (node) => {
    const spec = node.source && node.source.value;
    if (typeof spec === 'string' && spec.startsWith('.')) visit(node, spec);
  };
  return {
    ImportDeclaration: check,
    ExportNamedDeclaration: check,
    ExportAllDeclaration: check,
    ImportExpression: check,
  };
}

const floors = {
  meta: { type: 'problem', schema: [], messages: { floor: '{{why}}' } },
  create(context) {
    const file = context.filename;
    return importSpecs(context, (node, spec) => {
      const target = resolveRelative(file, spec);
      if (!target) return;
      const why = floorViolation(rel(file), rel(target));
      if (why) context.report({ node, messageId: 'floor', data: { why } });
    });
  },
};

const noCycle = {
  meta: { type: 'problem', schema: [], messages: { cycle: 'import cycle: {{trail}}' } },
  create(context) {
    const file = context.filename;
    return importSpecs(context, (node, spec) => {
      if (node.importKind === 'type' || node.exportKind === 'type') return;
      const target = resolveRelative(file, spec);
      if (!target) return;
      const trail = cycleThrough(file, target);
      if (trail) context.report({ node, messageId: 'cycle', data: { trail: trail.map(rel).join(' → ') } });
    });
  },
};

const builders = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
]);
/**
 * Statements (query builders, CompiledQuery.raw) are refused outside the owners; fragments (sql`…`,
 * sql.ref/raw/join/lit) too, unless the option `fragments: true` allows them (the policies write
 * the conditions the owners' statements take as arguments).
 */
const sqlInOwners = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { fragments: { type: 'boolean' } }, additionalProperties: false }],
    messages: { sql: 'SQL is built only in a table owner (store/): {{what}}; call the owner instead.' },
  },
  create(context) {
    const fragments = Boolean(context.options[0] && context.options[0].fragments);
    const report = (node, what) => context.report({ node, messageId: 'sql', data: { what } });
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const method = callee.property.name;
        const object = callee.object.type === 'Identifier' ? callee.object.name : '';
        if (builders.has(method)) report(node, `.${method}()`);
        else if (object === 'CompiledQuery') report(node, `CompiledQuery.${method}()`);
        else if (object === 'sql' && !fragments) report(node, `sql.${method}()`);
      },
      TaggedTemplateExpression(node) {
        const tag = node.tag.type === 'TSInstantiationExpression' ? node.tag.expression : node.tag;
        if (tag.type === 'Identifier' && tag.name === 'sql' && !fragments) report(node, 'sql`…`');
      },
    };
  },
};

/**
 * Governance reads time only from the one clock (GOVERNANCE.md §2.1): no `Date.now()`, no
 * argumentless `new Date()`, no SQL `now()` (or current_timestamp) in a template or raw string;
 * `ctx.clock.now()` is read once and passed on, to SQL as a parameter.
 */
const sqlNow =
  /\b(now\s*\(\s*\)|current_timestamp|localtimestamp|current_date|transaction_timestamp\s*\(|statement_timestamp\s*\(|clock_timestamp\s*\()/i;
const clock = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      clock:
        '{{what}} reads the system time: use the clock (ctx.clock.now(), sweep.at) and pass the instant on',
    },
  },
  create(context) {
    const report = (node, what) => context.report({ node, messageId: 'clock', data: { what } });
    const isSqlTag = (tag) => {
      const t = tag.type === 'TSInstantiationExpression' ? tag.expression : tag;
      return (
        (t.type === 'Identifier' && t.name === 'sql') ||
        (t.type === 'MemberExpression' && t.object.type === 'Identifier' && t.object.name === 'sql')
      );
    };
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (
          callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'Date' &&
          callee.property.type === 'Identifier' &&
          callee.property.name === 'now'
        ) {
          report(node, 'Date.now()');
        }
        if (
          callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'sql' &&
          callee.property.type === 'Identifier' &&
          ['raw', 'lit'].includes(callee.property.name) &&
          node.arguments[0]?.type === 'Literal' &&
          typeof node.arguments[0].value === 'string' &&
          sqlNow.test(node.arguments[0].value)
        ) {
          report(node, 'SQL now()');
        }
      },
      NewExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'Date' && node.arguments.length === 0) {
          report(node, 'new Date()');
        }
      },
      TaggedTemplateExpression(node) {
        if (isSqlTag(node.tag) && node.quasi.quasis.some((q) => sqlNow.test(q.value.raw)))
          report(node, 'SQL now()');
      },
    };
  },
};

export default {
  meta: { name: 'layers' },
  rules: { floors, 'no-cycle': noCycle, 'sql-in-owners': sqlInOwners, clock },
};
