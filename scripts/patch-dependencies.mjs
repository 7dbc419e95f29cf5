// Runs after `npm install` / `npm ci` (the root package.json's postinstall): small, behaviour-neutral
// speed fixes to installed dependencies, each an exact replacement of a known text. A copy whose
// text is neither the known original nor the patched one is left alone with a warning; the test
// apps/server/src/identity/dependency-patches.test.ts then fails, so an upgrade that changes the file is
// seen in CI rather than silently slower. Idempotent: running it twice changes nothing.
//
// xpath (every installed copy; node-saml, samlify and xml-crypto each select with it during a
// sign-in). A signature check selects its reference with `//*[@*[local-name(.)='ID']='…']`, whose
// predicates the evaluator runs for every element and every attribute of the document, each time in
// a fresh evaluation context; the four patches below keep every answer and drop waste from that loop:
// - `assign`: the ES5 helper copies properties with a for-in loop and hasOwnProperty; Object.assign
//   copies the same own enumerable properties (the objects have no symbol keys) natively. One such
//   select over a 58-node response went from 0.86 to 0.38 ms (bench/RESULTS.md, 2026-11-27 night).
// - `extend` and `evaluate`: each new context was made by `new XPathContext()`, which builds a fresh
//   variable, namespace and function resolver (the last one a table of the 27 standard functions),
//   and then had all three overwritten by the copy of the current context. The context is now made
//   from the prototype, and a default resolver only where the current context has none of its own,
//   so the copy overwrites exactly what it did before. That allocation was half of what an ACS
//   allocated (11.6 of 14 MB per sign-in; bench/RESULTS.md, 2026-11-28).
// - `parser`: every select built a new parser, whose set-up makes some 150 closures for its reduce
//   table. Parsing keeps no state in the parser between calls (the reduce actions only build the
//   expression's objects), so the selects share one.
//
// @xmldom/xmldom (every installed copy; xml-crypto and node-saml clone a signed element to check its
// signature): `cloneNode` copied a node's scalar fields with a for-in loop filtered by
// hasOwnProperty, which walks every method of the node's prototype chain for each node and
// attribute cloned. Object.keys lists the same own enumerable fields in the same order. An ACS's
// check of a response took 0.4-0.9 ms less CPU (bench/acs-validation.ts; bench/RESULTS.md,
// 2026-11-28).
//
// xml-crypto (every installed copy; node-saml checks both of a response's signatures with it):
// `validateReference` found the element a Reference names by evaluating
// `//*[@*[local-name(.)='<attr>']='<uri>']` for each of its three ID attribute names, three walks of
// the whole document through xpath's evaluator, each making contexts and node sets for every element
// and attribute. The patch selects the same elements in one plain walk per name (`ID_WALK`): every
// element of the document, in document order, that has an attribute, namespace declarations
// included as xpath's `@*` includes them, whose local name as xpath's local-name() reads it is
// <attr> and whose value is <uri>. The duplicate-ID refusal that follows is unchanged.
// `dependency-patches.test.ts` holds the walk to xpath's answer on random documents.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PATCH_MARK = 'PRA Portal patch';

/**
 * The patches of xpath.js: each an exact original (a regular expression, so that either line ending
 * matches) and what replaces it, carrying `mark` so that a patched copy is recognised.
 */
export const XPATH_PATCHES = [
  {
    name: 'assign',
    mark: `${PATCH_MARK}: Object.assign`,
    original:
      /function assign\(target, varArgs\) \{ \/\/ \.length of function is 2(\r?\n)[^]*?for \(var nextKey in nextSource\)[^]*?return to;\r?\n {4}\}/,
    replacement: (mark, eol) =>
      [
        `function assign(target, varArgs) { // ${mark} (scripts/patch-dependencies.mjs)`,
        '        return Object.assign.apply(Object, arguments);',
        '    }',
      ].join(eol),
  },
  {
    name: 'extend',
    mark: `${PATCH_MARK}: a context without throwaway resolvers`,
    original:
      /XPathContext\.prototype\.extend = function \(newProps\) \{(\r?\n) {8}return assign\(new XPathContext\(\), this, newProps\);\r?\n {4}\};/,
    replacement: (mark, eol) =>
      [
        `XPathContext.prototype.extend = function (newProps) { // ${mark} (scripts/patch-dependencies.mjs)`,
        '        return assign(contextFrom(this), this, newProps);',
        '    };',
        '',
        '    // A context to copy `source` into: the defaults `new XPathContext()` gives only where',
        '    // `source` has no resolver of its own to overwrite them with.',
        '    function contextFrom(source) {',
        '        var ctx = Object.create(XPathContext.prototype);',
        "        if (!Object.prototype.hasOwnProperty.call(source, 'variableResolver')) ctx.variableResolver = new VariableResolver();",
        "        if (!Object.prototype.hasOwnProperty.call(source, 'namespaceResolver')) ctx.namespaceResolver = new NamespaceResolver();",
        "        if (!Object.prototype.hasOwnProperty.call(source, 'functionResolver')) ctx.functionResolver = new FunctionResolver();",
        '        return ctx;',
        '    }',
      ].join(eol),
  },
  {
    name: 'evaluate',
    mark: `${PATCH_MARK}: the path's context from contextFrom`,
    original: /var xpc = assign\(new XPathContext\(\), c\);()/,
    replacement: (mark) => `var xpc = assign(contextFrom(c), c); // ${mark}`,
  },
  {
    name: 'parser',
    mark: `${PATCH_MARK}: one shared parser`,
    original:
      /exports\.selectWithResolver = function \(e, doc, resolver, single\) \{(\r?\n) {8}var expression = new XPathExpression\(e, resolver, new XPathParser\(\)\);/,
    replacement: (mark, eol) =>
      [
        `var sharedParser = null; // ${mark} (scripts/patch-dependencies.mjs)`,
        '    exports.selectWithResolver = function (e, doc, resolver, single) {',
        '        var expression = new XPathExpression(e, resolver, sharedParser || (sharedParser = new XPathParser()));',
      ].join(eol),
  },
];

export const XMLDOM_PATCHES = [
  {
    name: 'cloneNode',
    mark: `${PATCH_MARK}: Object.keys`,
    original:
      /\t{3}for \(var n in srcNode\) \{(\r?\n)\t{4}if \(Object\.prototype\.hasOwnProperty\.call\(srcNode, n\)\) \{\r?\n\t{5}var v = srcNode\[n\];\r?\n\t{5}if \(typeof v != 'object'\) \{\r?\n\t{6}if \(v != destNode\[n\]\) \{\r?\n\t{7}destNode\[n\] = v;\r?\n\t{6}\}\r?\n\t{5}\}\r?\n\t{4}\}\r?\n\t{3}\}/,
    replacement: (mark, eol) =>
      [
        `\t\t\t// ${mark} (scripts/patch-dependencies.mjs): the own enumerable fields, as the for-in did.`,
        '\t\t\tvar ownKeys = Object.keys(srcNode);',
        '\t\t\tfor (var k = 0; k < ownKeys.length; k++) {',
        '\t\t\t\tvar n = ownKeys[k];',
        '\t\t\t\tvar v = srcNode[n];',
        "\t\t\t\tif (typeof v != 'object') {",
        '\t\t\t\t\tif (v != destNode[n]) {',
        '\t\t\t\t\t\tdestNode[n] = v;',
        '\t\t\t\t\t}',
        '\t\t\t\t}',
        '\t\t\t}',
      ].join(eol),
  },
];

/**
 * The body that selects, into `tmp_elem`, what xpath.select(`//*[@*[local-name(.)='${attr}']=
 * '${uri}']`, doc) selects (see the header): `doc`, `attr` and `uri` are validateReference's.
 */
export const ID_WALK = [
  'const tmp_elem = [];',
  'const pending = [doc];',
  'while (pending.length > 0) {',
  '    const node = pending.pop();',
  '    if (node.nodeType === 1) {',
  '        const attributes = node.attributes;',
  '        for (let i = 0; i < attributes.length; i++) {',
  '            const a = attributes.item(i);',
  '            if ((a.localName || a.baseName || a.target || a.nodeName || "") === attr && (a.value || a.nodeValue) === uri) {',
  '                tmp_elem.push(node);',
  '                break;',
  '            }',
  '        }',
  '    }',
  '    for (let child = node.lastChild; child; child = child.previousSibling) {',
  '        if (child.nodeType === 1) pending.push(child);',
  '    }',
  '}',
];

export const XML_CRYPTO_PATCHES = [
  {
    name: 'idLookup',
    mark: `${PATCH_MARK}: the ID lookup by one walk`,
    original:
      / {16}const tmp_elemXpath = `\/\/\*\[@\*\[local-name\(\.\)='\$\{attr\}'\]='\$\{uri\}'\]`;(\r?\n) {16}const tmp_elem = xpath\.select\(tmp_elemXpath, doc\);/,
    replacement: (mark, eol) =>
      [
        "                const tmp_elemXpath = `//*[@*[local-name(.)='${attr}']='${uri}']`;",
        `                // ${mark} (scripts/patch-dependencies.mjs): what the xpath selects.`,
        ...ID_WALK.map((line) => `                ${line}`),
      ].join(eol),
  },
];

/**
 * `source` with every one of `patches` applied (or already there), or null when some patch finds
 * neither its original nor its mark: the copy is then left as it is.
 */
function applyPatches(source, patches) {
  let patched = source;
  for (const patch of patches) {
    if (patched.includes(patch.mark)) continue;
    const match = patch.original.exec(patched);
    if (!match) return null;
    const eol = match[1] || (patched.includes('\r\n') ? '\r\n' : '\n');
    patched = patched.replace(patch.original, () => patch.replacement(patch.mark, eol));
  }
  return patched;
}

/** The patched text of xpath.js, or null (see applyPatches). */
export const patchXpath = (source) => applyPatches(source, XPATH_PATCHES);

/** The patched text of @xmldom/xmldom's lib/dom.js, or null (see applyPatches). */
export const patchXmldom = (source) => applyPatches(source, XMLDOM_PATCHES);

/** The patched text of xml-crypto's lib/signed-xml.js, or null (see applyPatches). */
export const patchXmlCrypto = (source) => applyPatches(source, XML_CRYPTO_PATCHES);

/** What is patched: each package (every installed copy), the file in it, and how. */
const TARGETS = [
  { name: 'xpath', file: 'xpath.js', patch: patchXpath },
  { name: '@xmldom/xmldom', file: join('lib', 'dom.js'), patch: patchXmldom },
  { name: 'xml-crypto', file: join('lib', 'signed-xml.js'), patch: patchXmlCrypto },
];

/**
 * Every installed copy of the packages `names` under `dir`'s node_modules, nested ones included,
 * as [name, folder], in one walk of the tree. Real folders only (a link's entry is not a
 * directory): a workspace's link (node_modules/@pra/server) leads back into the tree, and a
 * dangling link must not fail the install.
 */
function* installedCopies(dir, names, depth = 0) {
  const modules = join(dir, 'node_modules');
  for (const entry of folders(modules)) {
    const packages = entry.startsWith('@')
      ? folders(join(modules, entry)).map((p) => `${entry}/${p}`)
      : [entry];
    for (const pkg of packages) {
      const path = join(modules, pkg);
      if (names.has(pkg)) yield [pkg, path];
      if (depth < 6) yield* installedCopies(path, names, depth + 1);
    }
  }
}

/** The names of the real folders in `path` (none when it is missing), hidden ones left out. */
function folders(path) {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

export function patchDependencies(root) {
  const results = [];
  const targets = new Map(TARGETS.map((target) => [target.name, target]));
  for (const [name, dir] of installedCopies(root, new Set(targets.keys()))) {
    const target = targets.get(name);
    const file = join(dir, target.file);
    let source;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const patched = target.patch(source);
    if (patched === null) results.push({ file, outcome: 'unknown text, left alone' });
    else if (patched === source) results.push({ file, outcome: 'already patched' });
    else {
      writeFileSync(file, patched);
      results.push({ file, outcome: 'patched' });
    }
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  for (const { file, outcome } of patchDependencies(root)) {
    const line = `patch-dependencies: ${file.slice(root.length)}: ${outcome}`;
    if (outcome.startsWith('unknown')) console.warn(line);
    else if (outcome === 'patched') console.log(line);
  }
}
