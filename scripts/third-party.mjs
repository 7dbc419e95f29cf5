// The production dependencies installed in node_modules and their licences, for `npm run package`.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** The folder of package `name` as Node finds it from `from`: the nearest node_modules up to `root`. */
function findPackage(root, name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dirname(dir) === dir) return null;
  }
}

function readManifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

function licenceOf(manifest) {
  const { license, licenses } = manifest;
  if (typeof license === 'string') return license;
  if (license && typeof license.type === 'string') return license.type;
  if (Array.isArray(licenses)) return licenses.map((l) => l.type ?? String(l)).join(' OR ');
  return 'UNKNOWN (no licence field)';
}

/**
 * Every package that `names` need at run time, found from `fromDirs` as Node would find them, and
 * what those need in turn (dependencies, installed optional dependencies, installed peers): a map
 * from each package's folder to its name, version and licence. Workspace packages (symlinks out of
 * node_modules, e.g. @pra/contracts) are followed for their dependencies but not listed.
 */
export function productionPackages(root, names, ...fromDirs) {
  const found = new Map();
  const seen = new Set();
  const queue = fromDirs.flatMap((from) => names.map((name) => ({ name, from, optional: false })));
  while (queue.length > 0) {
    const { name, from, optional } = queue.shift();
    const dir = findPackage(root, name, from);
    if (!dir) {
      if (optional) continue;
      throw new Error(`${name}, needed from ${from}, is not installed (npm ci first)`);
    }
    if (seen.has(dir)) continue;
    seen.add(dir);
    const manifest = readManifest(dir);
    const isWorkspace = !realpathSync(dir).split(sep).includes('node_modules');
    if (!isWorkspace) {
      found.set(dir, {
        name: manifest.name,
        version: manifest.version,
        licence: licenceOf(manifest),
        manifest,
      });
    }
    const peerMeta = manifest.peerDependenciesMeta ?? {};
    const next = [
      ...Object.keys(manifest.dependencies ?? {}).map((dep) => ({ dep, optional: false })),
      ...Object.keys(manifest.optionalDependencies ?? {}).map((dep) => ({ dep, optional: true })),
      // A peer is the host's to provide: listed when installed, never required here.
      ...Object.keys(manifest.peerDependencies ?? {})
        .filter((dep) => !peerMeta[dep]?.optional)
        .map((dep) => ({ dep, optional: true })),
    ];
    for (const { dep, optional: isOptional } of next) {
      queue.push({ name: dep, from: isWorkspace ? realpathSync(dir) : dir, optional: isOptional });
    }
  }
  return found;
}

/** The licence files a package carries (LICENSE, LICENCE, COPYING, NOTICE and their variants). */
function licenceFiles(dir) {
  return readdirSync(dir)
    .filter((file) => /^(licen[cs]e|copying|notice)([.-]|$)/i.test(file))
    .filter((file) => statSync(join(dir, file)).isFile())
    .sort();
}

/** THIRD-PARTY-LICENSES: a summary line per package, then each package's licence texts. */
export function thirdPartyLicenses(packages, product) {
  const byId = new Map();
  for (const [dir, info] of packages) {
    const id = `${info.name}@${info.version}`;
    if (!byId.has(id)) byId.set(id, { ...info, dir });
  }
  const entries = [...byId.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
  const rule = '-'.repeat(72);
  const lines = [
    `Third-party software in ${product}`,
    '',
    `${entries.length} packages: the production dependencies of the server and the web app, bundled into`,
    'apps/server/dist and apps/web/dist or shipped in node_modules, with the licence each declares and',
    'the licence files it carries.',
    '',
    ...entries.map((e) => `  ${e.name} ${e.version}: ${e.licence}`),
  ];
  for (const e of entries) {
    const repository =
      typeof e.manifest.repository === 'string' ? e.manifest.repository : e.manifest.repository?.url;
    lines.push('', rule, `${e.name} ${e.version}`, `Licence: ${e.licence}`);
    if (repository) lines.push(`Source: ${repository}`);
    const files = licenceFiles(e.dir);
    if (files.length === 0)
      lines.push('', '(The package carries no licence file; its package.json declares the licence above.)');
    for (const file of files)
      lines.push('', `${file}:`, '', readFileSync(join(e.dir, file), 'utf8').trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
