import { adminApi } from '@pra/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestApp, type TestClient } from '../../../test/support/test-app';

// Issue 31: a long audit export runs on long work's own pool (AppContext.longWorkDb), so that
// it never holds a connection of the requests' pool. PostgreSQL only (PGlite has one connection).

describe.skipIf(!process.env.TEST_DATABASE_URL)('the audit export on its own pool', () => {
  let t: TestApp;
  let admin: TestClient;
  const requests: string[] = [];
  const longWork: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(
      'postgres',
      {},
      { onStatement: (text) => requests.push(text), onLongWorkStatement: (text) => longWork.push(text) },
    );
    await createAccount(t, { username: 'exportadmin', type: 'employee', isAdmin: true });
    admin = await signInAs(t, 'exportadmin');
    await sql`
      insert into audit_events (action, outcome, details)
      select 'test.export', 'success', jsonb_build_object('n', n) from generate_series(1, 2500) n`.execute(
      t.ctx.db,
    );
  });
  afterAll(async () => t?.close());

  it('reads every batch on long work’s pool and none on the requests’ pool', async () => {
    requests.length = 0;
    longWork.length = 0;
    const csv = await admin.get(`${adminApi.auditExport}?action=test.export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(2501);
    const auditReads = (list: string[]) => list.filter((text) => /from "?audit_events"?/.test(text));
    // 1,000 events a batch: three batches, the last one short.
    expect(auditReads(longWork)).toHaveLength(3);
    expect(auditReads(requests)).toEqual([]);
    const application = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and application_name = 'pra-portal-long-work'`.execute(t.ctx.db);
    expect(application.rows[0]!.n).toBeGreaterThan(0);
  });
});
