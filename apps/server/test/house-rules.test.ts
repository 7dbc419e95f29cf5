import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// House rules of docs/ARCHITECTURE.md that a grep can keep: a feature reaches another feature only
// through a lower floor, and only a feature's queries.ts builds SQL.

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

/** SQL builders of Kysely, and the sql template tag. */
export function sqlBuilders(source: string): string[] {
  return source.match(/\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql(<[^>]*>)?`/g) ?? [];
}

describe('house rules', () => {
  it('the scanners see what they look for', () => {
    expect(
      siblingImports(`import { a } from '../registration/queries';\nimport { b } from '../../identity/x';`),
    ).toEqual(['../registration/queries']);
    expect(
      sqlBuilders("await tx.updateTable('a'); db.selectFrom('b'); sql<Date>`now()`; sql`x`"),
    ).toHaveLength(4);
    expect(sqlBuilders('const q = await findAccount(db);')).toEqual([]);
  });

  it('no feature imports another feature', () => {
    const found = featureRoots.flatMap((root) =>
      sourceFiles(root).flatMap((file) =>
        siblingImports(readFileSync(file, 'utf8')).map((spec) => `${relative(repo, file)}: ${spec}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('only query modules (queries.ts, *-queries.ts) build SQL in a server feature (tests aside)', () => {
    const found = sourceFiles(featureRoots[0]!)
      .filter((file) => !/(^|\/|-)queries\.ts$/.test(file) && !file.endsWith('.test.ts'))
      .flatMap((file) =>
        sqlBuilders(readFileSync(file, 'utf8')).map((hit) => `${relative(repo, file)}: ${hit}`),
      );
    expect(found).toEqual([]);
  });
});
