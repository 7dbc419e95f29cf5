import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// House rules of docs/ARCHITECTURE.md that a grep can keep: a feature reaches another feature only
// through a lower floor, the server's floors import only their own floor and those below, and SQL
// is written only in the table owners of apps/server/src/store/ (and the migrations).

const repo = join(import.meta.dirname, '../../..');
const featureRoots = ['apps/server/src/features', 'apps/web/src/features'].map((p) => join(repo, p));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Import specifiers that climb out of the feature folder into a sibling feature ('../other/…'). */
export function siblingImports(source: string): string[] {
  return [
    ...source.matchAll(/\bfrom\s+'(\.\.\/(?!\.\.\/)[^']+)'|\bimport\(\s*'(\.\.\/(?!\.\.\/)[^']+)'/g),
  ].map((m) => (m[1] ?? m[2])!);
}

/** SQL builders of Kysely, the sql template tag, and SQL text run as it is. */
export function sqlBuilders(source: string): string[] {
  return (
    source.match(
      /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql(<[^>]*>)?`|\b(CompiledQuery|sql)\.raw\(/g,
    ) ?? []
  );
}

const serverSrc = join(repo, 'apps/server/src');

/**
 * The server's floors, lowest first (docs/ARCHITECTURE.md): a module imports its own floor and
 * those below. `config.ts` and the migrations sit beside platform; idp beside features.
 */
const floors: Record<string, number> = {
  'config.ts': 0,
  migrations: 0,
  platform: 0,
  store: 1,
  identity: 2,
  http: 3,
  features: 4,
  idp: 4,
};

/** The composition root builds the app from every floor. */
const floorExceptions = new Set(['platform/runtime.ts']);

/** Relative imports of a module under apps/server/src that reach a higher floor or a sibling one. */
export function floorCrossings(file: string, source: string): string[] {
  const own = relative(serverSrc, file).split('/')[0]!;
  if (!(own in floors)) return [];
  return [...source.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'/g)]
    .map((m) => (m[1] ?? m[2])!)
    .filter((spec) => {
      const target = relative(serverSrc, join(dirname(file), spec)).split('/')[0]!;
      const floor = floors[target === 'config' ? 'config.ts' : target];
      if (floor === undefined) return !target.startsWith('..'); // a top-level entry point
      return floor > floors[own]! || (floor === floors[own] && floor > 0 && target !== own);
    });
}

/**
 * The modules outside store/ that write SQL: the database engine's own (db.ts: its probe and the
 * migrator's bookkeeping; pglite-dialect.ts: transaction control). The list is exact: a module
 * that no longer writes SQL must leave it.
 */
const sqlOutsideOwners = ['apps/server/src/platform/db.ts', 'apps/server/src/platform/pglite-dialect.ts'];

describe('house rules', () => {
  it('the scanners see what they look for', () => {
    expect(
      siblingImports(`import { a } from '../registration/queries';\nimport { b } from '../../identity/x';`),
    ).toEqual(['../registration/queries']);
    expect(
      sqlBuilders("await tx.updateTable('a'); db.selectFrom('b'); sql<Date>`now()`; sql`x`"),
    ).toHaveLength(4);
    expect(sqlBuilders('const q = await findAccount(db);')).toEqual([]);
    expect(sqlBuilders("db.executeQuery(CompiledQuery.raw(text)); sql.raw('x')")).toHaveLength(2);
    const at = (path: string) => join(serverSrc, path);
    expect(floorCrossings(at('platform/x.ts'), "import { a } from '../store/sessions';")).toEqual([
      '../store/sessions',
    ]);
    expect(floorCrossings(at('identity/x.ts'), "import { a } from '../idp/lockout';")).toEqual([
      '../idp/lockout',
    ]);
    expect(floorCrossings(at('idp/x.ts'), "import { a } from '../features/session/x';")).toEqual([
      '../features/session/x',
    ]);
    expect(
      floorCrossings(
        at('features/a/x.ts'),
        "import { a } from '../../http/session';\nimport { b } from '../../store/sessions';\nimport { c } from '../../config';\nimport { d } from './queries';",
      ),
    ).toEqual([]);
  });

  it('no feature imports another feature', () => {
    const found = featureRoots.flatMap((root) =>
      sourceFiles(root).flatMap((file) =>
        siblingImports(readFileSync(file, 'utf8')).map((spec) => `${relative(repo, file)}: ${spec}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('the server floors import only their own floor and those below', () => {
    const found = sourceFiles(serverSrc)
      .filter((file) => !file.endsWith('.test.ts') && !floorExceptions.has(relative(serverSrc, file)))
      .flatMap((file) =>
        floorCrossings(file, readFileSync(file, 'utf8')).map((spec) => `${relative(repo, file)}: ${spec}`),
      );
    expect(found).toEqual([]);
  });

  it('only the owners in store/ and the migrations write SQL on the server (tests aside)', () => {
    const found = sourceFiles(serverSrc)
      .map((file) => relative(repo, file))
      .filter((file) => !/^apps\/server\/src\/(store|migrations)\//.test(file) && !file.endsWith('.test.ts'))
      .filter((file) => sqlBuilders(readFileSync(join(repo, file), 'utf8')).length > 0);
    expect(found).toEqual(sqlOutsideOwners);
  });
});
