import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/databases';
import { afterCommit } from './after-commit';

describe('work after commit', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(async () => database?.close());

  it('runs after COMMIT, never on rollback, and at once outside a transaction', async () => {
    const ran: string[] = [];
    await database.db.transaction().execute(async (tx) => {
      afterCommit(tx, () => ran.push('committed'));
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['committed']);
    await database.db
      .transaction()
      .execute(async (tx) => {
        afterCommit(tx, () => ran.push('rolled back'));
        throw new Error('fails');
      })
      .catch(() => {});
    afterCommit(database.db, () => ran.push('autocommit'));
    expect(ran).toEqual(['committed', 'autocommit']);
  });

  it('keeps working through the builder settings', async () => {
    const ran: string[] = [];
    await database.db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (tx) => {
        afterCommit(tx, () => ran.push('serializable'));
        expect(ran).toEqual([]);
      });
    expect(ran).toEqual(['serializable']);
  });
});
