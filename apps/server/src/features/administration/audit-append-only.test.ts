import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds } from '../../../test/support/databases';
import { recordAudit } from '../../identity/audit';
import type { DatabaseHandle } from '../../platform/db';
import { purgeAuditEvents } from '../../store/audit';

describe.each(testDatabaseKinds)('the audit trail is append-only for the app on %s', (kind) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    await recordAudit(handle.db, { action: 'test.event', outcome: 'success' });
  });
  afterAll(async () => handle?.close());

  const count = async () =>
    Number(
      (await sql<{ n: number }>`select count(*)::int as n from audit_events`.execute(handle.db)).rows[0]?.n,
    );

  it('inserts and reads', async () => {
    expect(await count()).toBe(1);
  });

  it('refuses UPDATE through the app connection', async () => {
    await expect(sql`update audit_events set outcome = 'failure'`.execute(handle.db)).rejects.toThrow(
      'audit events cannot be changed or deleted (UPDATE)',
    );
    const row = await handle.db.selectFrom('audit_events').select('outcome').executeTakeFirstOrThrow();
    expect(row.outcome).toBe('success');
  });

  it('refuses DELETE and TRUNCATE through the app connection', async () => {
    await expect(handle.db.deleteFrom('audit_events').execute()).rejects.toThrow(
      'audit events cannot be changed or deleted (DELETE)',
    );
    await expect(sql`truncate audit_events`.execute(handle.db)).rejects.toThrow('(TRUNCATE)');
    expect(await count()).toBe(1);
  });

  it('the purge function deletes only what is older, and leaves the guard on afterwards', async () => {
    await handle.db
      .insertInto('audit_events')
      .values({ action: 'old', outcome: 'success', occurred_at: '2000-01-01T00:00:00Z', details: '{}' })
      .execute();
    let purgedInTransaction = 0;
    const later = handle.db.transaction().execute(async (tx) => {
      purgedInTransaction = await purgeAuditEvents(tx, new Date('2001-01-01T00:00:00Z'));
      // Same transaction, after the purge: the setting is off again.
      await tx.deleteFrom('audit_events').execute();
    });
    await expect(later).rejects.toThrow('cannot be changed or deleted (DELETE)');
    expect(purgedInTransaction).toBe(1);
    // The transaction above was rolled back by the refused delete; purge again on its own.
    expect(await purgeAuditEvents(handle.db, new Date('2001-01-01T00:00:00Z'))).toBe(1);
    expect(await count()).toBe(1);
  });
});
