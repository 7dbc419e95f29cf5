// A Terminate Vendors job in a real server process on PostgreSQL: stopped mid-way by SIGTERM, then
// its PostgreSQL connections terminated mid-way, every account ends fully terminated or untouched,
// exactly as the job's lines say, and the job resumes to its end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildServer,
  freePort,
  runSql,
  scratchDatabase,
  startServer,
  stopServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';

const VENDORS = 6_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('a terminate job in a server process', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  let dataDir: string;
  let env: Record<string, string>;
  let instance: Instance | undefined;
  let jobId: string;

  const sqlOf = (text: string, values: unknown[] = []) => runSql(database!.url, text, values);
  const job = async () =>
    (await sqlOf('select status, done, cursor, lease_holder from jobs where id = $1', [jobId])).rows[0] as {
      status: string;
      done: number;
      lease_holder: string | null;
    };

  /** Each vendor is terminated with no role and one audit event, or active with its role and none; which, as the lines say. */
  async function expectWholeAccounts() {
    const { rows } = await sqlOf(
      `select a.status,
              (select count(*) from role_grants g where g.account_id = a.id)::int as roles,
              (select count(*) from audit_events e where e.target_id = a.id and e.action = 'account.terminate')::int as audits,
              exists (select 1 from job_results r where r.job_id = $1
                        and r.item = (substring(a.username from 8))::int - 1) as reported
         from accounts a where a.username like 'jobvend%'`,
      [jobId],
    );
    expect(rows).toHaveLength(VENDORS);
    const wrong = rows.filter((r) =>
      r.reported
        ? !(r.status === 'terminated' && r.roles === 0 && r.audits === 1)
        : !(r.status === 'active' && r.roles === 1 && r.audits === 0),
    );
    expect(wrong).toEqual([]);
    return rows.filter((r) => r.reported).length;
  }

  async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`timed out:\n${instance?.output.join('')}`);
  }

  beforeAll(async () => {
    buildServer();
    database = await scratchDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'pra-terminate-job-'));
    const port = await freePort();
    env = {
      PRA_MODE: 'standalone',
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://localhost:${port}`,
      SHUTDOWN_GRACE_SECONDS: '10',
    };
    // A first start migrates the database; the world and the job are written while it is down.
    instance = startServer('first', port, env);
    await waitUntilUp(instance);
    expect(await stopServer(instance)).toBe(0);
    await sqlOf(`insert into organizations (name) values ('Job Org')`);
    await sqlOf(
      `insert into accounts (username, email, type, is_employee_brm, status)
       values ('jobbrm', 'jobbrm@hospital.example', 'employee', true, 'active')`,
    );
    await sqlOf(
      `insert into brm_assignments (account_id, organization_id)
       select a.id, o.id from accounts a, organizations o where a.username = 'jobbrm' and o.name = 'Job Org'`,
    );
    await sqlOf(
      `insert into accounts (username, email, type, status)
       select 'jobvend' || n, 'jobvend' || n || '@vendor.example', 'vendor', 'active' from generate_series(1, $1::int) n`,
      [VENDORS],
    );
    await sqlOf(
      `insert into role_grants (account_id, organization_id)
       select a.id, o.id from accounts a, organizations o where a.username like 'jobvend%' and o.name = 'Job Org'`,
    );
    const emails = Array.from({ length: VENDORS }, (_, i) => `jobvend${i + 1}@vendor.example`);
    const { rows } = await sqlOf(
      `insert into jobs (kind, owner_id, input, total, created_at, updated_at)
       select 'terminate-vendors', id, $1::jsonb, $2, now(), now() from accounts where username = 'jobbrm'
       returning id`,
      [JSON.stringify({ emails, clientAddress: '127.0.0.1' }), VENDORS],
    );
    jobId = rows[0].id as string;
  }, 120_000);

  afterAll(async () => {
    await stopServer(instance);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }, 30_000);

  it('stops at SIGTERM between steps, handing the job back; resumes after a restart and after its connections are terminated', async () => {
    const port = await freePort();
    instance = startServer('second', port, env);
    await waitFor(async () => (await job()).done > 0);
    expect(await stopServer(instance)).toBe(0);
    const stopped = await job();
    expect(stopped).toMatchObject({ status: 'running', lease_holder: null });
    expect(stopped.done).toBeLessThan(VENDORS);
    expect(await expectWholeAccounts()).toBe(stopped.done);

    instance = startServer('third', await freePort(), env);
    const before = stopped.done;
    await waitFor(async () => (await job()).done > before);
    // PostgreSQL ends every connection of the portal mid-way (as a failover would).
    await sqlOf(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`,
    );
    await expectWholeAccounts();
    await waitFor(async () => (await job()).status === 'done', 120_000);
    expect((await job()).done).toBe(VENDORS);
    expect(await expectWholeAccounts()).toBe(VENDORS);
    const { rows } = await sqlOf(
      'select count(distinct item)::int as items from job_results where job_id = $1',
      [jobId],
    );
    expect(rows[0].items).toBe(VENDORS);
  }, 240_000);
});
