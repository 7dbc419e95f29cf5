import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The docs name files of the code in backticks (`identity/audit.ts`, `apps/web/src/lib/`); a file
// that moved or went away makes the page untrue. Each such name must exist under one of the roots
// the docs write paths from.
const repo = path.resolve(import.meta.dirname, '..');
const roots = [
  '',
  'apps/server/src',
  'apps/server',
  'apps/web/src',
  'apps/web',
  'packages/contracts/src',
  'packages',
  'apps',
  'deploy',
  'apps/server/src/features',
  'apps/web/src/features',
];
const docs = [
  'README.md',
  'docs/ARCHITECTURE.md',
  'docs/OPERATIONS.md',
  ...(fs.existsSync(path.join(repo, 'docs/design'))
    ? fs.readdirSync(path.join(repo, 'docs/design'), { withFileTypes: true })
    : []
  )
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => `docs/design/${e.name}`),
];

/** Backticked names that look like files or folders of this repository. */
export function namedPaths(markdown) {
  return (
    [...markdown.matchAll(/`([^`\s]+)`/g)]
      .map((m) => m[1].replace(/[),.:;]+$/, ''))
      .filter((p) => /^[\w.@-]+(\/[\w.@*-]+)+\/?$|^[\w-]+\.(ts|tsx|mjs|js|json|scss|css|md)$/.test(p))
      .filter((p) => !p.startsWith('/') && !/^https?:/.test(p) && !p.includes('*') && !/^\.{1,2}\//.test(p))
      // A setting's value with a path after it (`PUBLIC_URL/api/saml/acs`, `DATA_DIR/db`).
      .filter((p) => !/^[A-Z][A-Z0-9_]+\//.test(p))
      // Time-zone names (`America/New_York`): capitalized, unlike this repository's paths.
      .filter((p) => !/^[A-Z][a-z]+(\/[A-Z][A-Za-z_]+)+$/.test(p))
      // Lint rule names (`layers/floors`).
      .filter((p) => !/^(layers|@typescript-eslint|react-hooks)\//.test(p))
      .filter((p) => !/^(node_modules|dist|data|@[\w-]+\/)/.test(p.replace(/^apps\/\w+\//, '')))
  );
}

const tracked = execFileSync('git', ['ls-files'], { cwd: repo, encoding: 'utf8' }).split('\n');
const basenames = new Set(tracked.map((f) => path.basename(f)));
// Files the release artifact has at its top (scripts/package.mjs writes them): docs name them too.
const packaging = fs.readFileSync(path.join(repo, 'scripts/package.mjs'), 'utf8');

function exists(name) {
  const clean = name.replace(/\/$/, '');
  // A bare file name (`queries.ts`) names a kind of file: some file of the repository has it.
  if (!clean.includes('/')) return basenames.has(clean) || packaging.includes(`'${clean}'`);
  // A package's module (`react-dom/server`), not a file of ours.
  if (fs.existsSync(path.join(repo, 'node_modules', clean.split('/')[0]))) return true;
  const named = clean.replace(/^contracts\//, 'packages/contracts/src/');
  return roots.some((root) => fs.existsSync(path.join(repo, root, named)));
}

describe('docs name files that exist', () => {
  it('finds the names it checks', () => {
    expect(namedPaths('see `identity/audit.ts`, `apps/web/src/lib/` and `GET /api/user`')).toEqual([
      'identity/audit.ts',
      'apps/web/src/lib/',
    ]);
  });

  for (const doc of docs) {
    it(doc, () => {
      const missing = namedPaths(fs.readFileSync(path.join(repo, doc), 'utf8')).filter((p) => !exists(p));
      expect(missing).toEqual([]);
    });
  }
});
