// @vitest-environment node
// The schema library (zod, 25 kB gzip) stays off the first page and off Manage Profile until
// someone acts (issue 31's /vendor/profile budget): follows the static imports from each entry, as
// the bundler does (dynamic import() and type-only imports are not followed), through the app's
// own files and @pra/contracts, and fails naming the chain that reaches zod. The answers those
// pages ask for on arrival are read by api/boot-parsers.ts instead of the contract schemas.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const web = fileURLToPath(new URL('..', import.meta.url));
const contracts = resolve(web, '../../packages/contracts/src');

const STATIC_FROM = /^\s*(?:import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT = /^\s*import\s*['"]([^'"]+)['"]/gm;

/** Whether an import's names are all types (`{ type A, type B }`): the bundler drops it. */
function typesOnly(names: string): boolean {
  const inner = /^\{([\s\S]*)\}$/.exec(names.trim())?.[1];
  if (inner === undefined) return false;
  const parts = inner
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length > 0 && parts.every((p) => p.startsWith('type '));
}

function fileOf(specifier: string, from: string): string | null {
  const base = specifier.startsWith('.')
    ? resolve(dirname(from), specifier)
    : specifier === '@pra/contracts'
      ? join(contracts, 'index')
      : specifier.startsWith('@pra/contracts/')
        ? join(contracts, specifier.slice('@pra/contracts/'.length))
        : null;
  if (base === null) return null;
  const found = ['.ts', '.tsx', '/index.ts', '/index.tsx', ''].map((ext) => base + ext).find(existsSync);
  if (!found) throw new Error(`cannot resolve ${specifier} from ${from}`);
  return found;
}

/** The static imports of `file`: the app's and the contracts' files, and the packages named. */
function importsOf(file: string): { files: string[]; packages: string[] } {
  const source = readFileSync(file, 'utf8');
  const specifiers = [
    ...[...source.matchAll(STATIC_FROM)].filter((m) => !m[1] && !typesOnly(m[2] ?? '')).map((m) => m[3]!),
    ...[...source.matchAll(SIDE_EFFECT)].map((m) => m[1]!),
  ];
  const files: string[] = [];
  const packages: string[] = [];
  for (const specifier of specifiers) {
    const target = fileOf(specifier, file);
    if (target) files.push(target);
    else if (!specifier.endsWith('.css')) packages.push(specifier);
  }
  return { files, packages };
}

/** The chain of files from `entry` to the first that imports `pkg` statically, or null. */
function chainTo(entry: string, pkg: string): string[] | null {
  const cameFrom = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const { files, packages } = importsOf(file);
    if (packages.some((p) => p === pkg || p.startsWith(`${pkg}/`))) {
      const chain: string[] = [];
      for (let at: string | null = file; at; at = cameFrom.get(at) ?? null) chain.unshift(relative(web, at));
      return chain;
    }
    for (const next of files) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return null;
}

describe('the schema library stays off the pages that must not wait for it', () => {
  it.each([
    ['the first page (the entry)', 'src/main.tsx'],
    ['Manage Profile', 'src/features/profile/profile-page.tsx'],
  ])('%s imports no zod statically', (_name, entry) => {
    expect(chainTo(join(web, entry), 'zod')).toBeNull();
  });

  it('finds zod where a page does import it (the check can fail)', () => {
    const chain = chainTo(join(web, 'src/features/policy-attestation/admin-aup-page.tsx'), 'zod');
    expect(chain?.at(-1)).toMatch(/packages\/contracts\/src\//);
  });
});
