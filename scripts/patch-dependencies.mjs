// Runs after `npm install` / `npm ci` (the root package.json's postinstall): small, behaviour-neutral
// speed fixes to installed dependencies, each an exact replacement of a known text. A copy whose
// text is neither the known original nor the patched one is left alone with a warning; the test
// apps/server/src/identity/xpath-patch.test.ts then fails, so an upgrade that changes the file is
// seen in CI rather than silently slower. Idempotent: running it twice changes nothing.
//
// xpath (every installed copy; node-saml, samlify and xml-crypto each select with it during a
// sign-in): its ES5 `assign` helper copies properties with a for-in loop and hasOwnProperty. The
// evaluator calls it for every node a predicate looks at (XPathContext.extend), so a SAML
// signature check of a 4 kB response spent most of its XPath time there. Object.assign copies the
// same own enumerable properties (the objects have no symbol keys) natively: one `//*[@ID=...]`
// select over a 58-node response went from 0.86 to 0.38 ms (bench/RESULTS.md, 2026-11-27 night).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const XPATH_PATCH_MARK = 'PRA Portal patch: Object.assign';

const ASSIGN =
  /function assign\(target, varArgs\) \{ \/\/ \.length of function is 2(\r?\n)[^]*?return to;\r?\n {4}\}/;
const PATCHED = new RegExp(`function assign\\(target, varArgs\\) \\{ // ${XPATH_PATCH_MARK}`);

/** The patched text of xpath.js, or null when it has no known assign helper. */
export function patchXpath(source) {
  if (PATCHED.test(source)) return source;
  const match = ASSIGN.exec(source);
  if (!match || !match[0].includes('for (var nextKey in nextSource)')) return null;
  const eol = match[1];
  const replacement = [
    `function assign(target, varArgs) { // ${XPATH_PATCH_MARK} (scripts/patch-dependencies.mjs)`,
    '        return Object.assign.apply(Object, arguments);',
    '    }',
  ].join(eol);
  return source.replace(ASSIGN, replacement);
}

/**
 * Every installed copy of a package under `dir`'s node_modules, nested ones included. Real folders
 * only (a link's entry is not a directory): a workspace's link (node_modules/@pra/server) leads back
 * into the tree, and a dangling link must not fail the install.
 */
function* installedCopies(dir, name, depth = 0) {
  const modules = join(dir, 'node_modules');
  for (const entry of folders(modules)) {
    const packages = entry.startsWith('@')
      ? folders(join(modules, entry)).map((p) => join(entry, p))
      : [entry];
    for (const pkg of packages) {
      const path = join(modules, pkg);
      if (pkg === name) yield path;
      if (depth < 6) yield* installedCopies(path, name, depth + 1);
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
  for (const dir of installedCopies(root, 'xpath')) {
    const file = join(dir, 'xpath.js');
    let source;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const patched = patchXpath(source);
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
