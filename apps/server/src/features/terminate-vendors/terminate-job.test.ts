import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { NOT_REACHED, terminateJobMessages } from '@pra/contracts';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm } from '../../../test/support/world';
import { JOB_LEASE_MS, runJob, type JobKind } from '../../identity/jobs';
import { TestClock } from '../../platform/clock';
import { claimJob } from '../../store/jobs';
import { NO_VENDOR_OF_YOURS } from './result-lines';
import { TERMINATE_JOB, terminateJobKind } from './terminate-job';

const JOBS = '/api/brm/terminate-vendors/jobs';
const NOT_BRM = 'Unauthorized: User does not have a BRM role';

interface View {
  status: string;
  total: number;
  done: number;
  emails?: string[];
  results: { item: number; result: string }[];
  next: number;
  error: string | null;
}

describe.each(testDatabaseKinds)('Terminate Vendors as a job on %s', (kind) => {
  let t: TestApp;
  let acme: string;
  let globex: string;
  const clock = new TestClock();
  const c: Record<string, TestClient> = {};
  let serial = 0;

  /** `count` vendors of Acme (every third also of Globex); their emails. */
  /** The roles the `item`th of `vendors(…)` holds before any termination. */
  const rolesOf = (item: number) => (item % 3 === 0 ? 2 : 1);

  async function vendors(count: number): Promise<string[]> {
    const emails: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const username = `job${kind}${(serial += 1)}`;
      const id = await createAccount(t, { username });
      const orgs = i % 3 === 0 ? [acme, globex] : [acme];
      await t.ctx.db
        .insertInto('role_grants')
        .values(
          orgs.map((o) => ({ account_id: id, organization_id: o, granted_by: null, request_item_id: null })),
        )
        .execute();
      emails.push(`${username}@example.test`);
    }
    return emails;
  }

  async function start(client: TestClient, emails: string[]): Promise<string> {
    const res = await client.post(JOBS, { emails });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }>().id;
  }

  async function view(client: TestClient, id: string, from = 0): Promise<View> {
    const res = await client.get(`${JOBS}/${id}?from=${from}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<View>();
  }

  /** Claims and runs the next job to its end (or until `kind` stops it), as a worker does. */
  async function work(
    jobKind: JobKind = terminateJobKind,
    options: { stepSize?: number; signal?: AbortSignal } = {},
  ) {
    const job = await claimJob(t.ctx.db, {
      holder: 'test',
      kinds: [TERMINATE_JOB],
      now: clock.now(),
      leaseMs: JOB_LEASE_MS,
    });
    if (!job) return null;
    return runJob(t.ctx.db, jobKind, job, 'test', {
      clock,
      stepSize: options.stepSize ?? 2,
      signal: options.signal ?? new AbortController().signal,
    });
  }

  /** Each account of `emails` is either fully terminated (no role, one audit event) or untouched. */
  async function states(emails: string[]) {
    const rows = await t.ctx.db
      .selectFrom('accounts as a')
      .select([
        'a.email',
        'a.status',
        sql<number>`(select count(*) from role_grants g where g.account_id = a.id)`.as('roles'),
        sql<number>`(select count(*) from audit_events e where e.target_id = a.id and e.action = 'account.terminate')`.as(
          'terminations',
        ),
        sql<number>`(select count(*) from sessions s where s.account_id = a.id and s.revoked_at is null)`.as(
          'live',
        ),
      ])
      .where('a.email', 'in', emails)
      .execute();
    return new Map(rows.map((r) => [r.email, r]));
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    acme = await addOrganization(t, 'Acme Imaging');
    globex = await addOrganization(t, 'Globex Health IT');
    for (const name of ['brmacme', 'brmboth']) {
      const brm = await createAccount(t, { username: name, type: 'employee', isEmployeeBrm: true });
      await assignBrm(t, brm, acme);
      if (name === 'brmboth') await assignBrm(t, brm, globex);
    }
    await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    await createAccount(t, { username: 'plainemployee', type: 'employee' });
    const vendor = await createAccount(t, { username: 'vendorone' });
    await t.ctx.db
      .insertInto('role_grants')
      .values({ account_id: vendor, organization_id: acme, granted_by: null, request_item_id: null })
      .execute();
    for (const name of ['brmacme', 'brmboth', 'adminone', 'plainemployee', 'vendorone'])
      c[name] = await signInAs(t, name);
  });
  afterAll(async () => t?.close());

  it('refuses vendors, plain employees and admins (403) and anonymous callers (401); a job is its owner’s only (404)', async () => {
    for (const name of ['vendorone', 'plainemployee', 'adminone']) {
      const res = await c[name]!.post(JOBS, { emails: ['a@example.test'] });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errors: [NOT_BRM] });
    }
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    expect((await anonymous.post(JOBS, { emails: ['a@example.test'] })).statusCode).toBe(401);

    const id = await start(c.brmacme!, ['nobody@example.test']);
    const other = await c.brmboth!.get(`${JOBS}/${id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ errors: [terminateJobMessages.notFound] });
    expect((await c.brmboth!.post(`${JOBS}/${id}/cancel`, {})).statusCode).toBe(404);
    expect((await c.brmacme!.get(`${JOBS}/not-a-uuid`)).statusCode).toBe(400);
    expect(await work()).toBe('finished');
    expect((await view(c.brmacme!, id)).results).toEqual([{ item: 0, result: NO_VENDOR_OF_YOURS }]);
    // A finished job cannot be cancelled.
    const late = await c.brmacme!.post(`${JOBS}/${id}/cancel`, {});
    expect(late.statusCode).toBe(409);
  });

  it('answers what the single call answers, line by line, with progress and lines from `next` on', async () => {
    const mine = await vendors(7);
    const emails = [
      mine[0]!,
      'nobody@example.test',
      ...mine.slice(1),
      mine[2]!.toUpperCase(),
      'vendorone@example.test',
    ];
    const id = await start(c.brmacme!, emails);
    const queued = await view(c.brmacme!, id);
    expect(queued).toMatchObject({
      status: 'queued',
      total: emails.length,
      done: 0,
      results: [],
      next: 0,
      emails,
    });

    expect(await work()).toBe('finished');
    const first = await view(c.brmacme!, id);
    expect(first.status).toBe('done');
    expect(first.done).toBe(emails.length);
    const lines: string[] = [];
    for (const r of first.results) lines[r.item] = r.result;
    expect(lines[0]).toMatch(
      /roles removed from Acme Imaging; it keeps its access to other organizations\.$/,
    );
    expect(lines[1]).toBe(NO_VENDOR_OF_YOURS);
    expect(lines[2]).toMatch(/roles removed from Acme Imaging; account terminated, sessions ended\.$/);
    expect(lines[emails.length - 2]).toBe('Listed earlier in the file: handled once.');
    expect(lines[emails.length - 1]).toMatch(/^Account vendorone: roles removed/);
    // Asked from `next`, only what is new (nothing here); from 0 again, everything.
    expect((await view(c.brmacme!, id, first.next)).results).toEqual([]);
    const state = await states(mine);
    mine.forEach((email, i) =>
      expect(state.get(email)).toMatchObject(
        i % 3 === 0
          ? { status: 'active', roles: 1, terminations: 0 }
          : { status: 'terminated', roles: 0, terminations: 1 },
      ),
    );
  });

  it('stops between steps and resumes where it stopped; cancelled, the rest stays untouched and is reported as not reached', async () => {
    const mine = await vendors(8);
    const session = await signInAs(t, mine[7]!.split('@')[0]!);
    const id = await start(c.brmboth!, mine);
    // The worker is stopped after its second step (say, SIGTERM): it hands the lease back.
    const stopping = new AbortController();
    let steps = 0;
    const stopAfterTwo: JobKind = {
      ...terminateJobKind,
      async step(tx, job, limit, now) {
        const step = await terminateJobKind.step(tx, job, limit, now);
        if ((steps += 1) === 2) stopping.abort();
        return step;
      },
    };
    expect(await work(stopAfterTwo, { signal: stopping.signal })).toBe('stopped');
    const paused = await view(c.brmboth!, id);
    expect(paused).toMatchObject({ status: 'running', done: 4 });
    let state = await states(mine);
    expect(mine.map((e) => state.get(e)!.status)).toEqual([
      ...Array(4).fill('terminated'),
      ...Array(4).fill('active'),
    ]);
    expect((await session.get('/api/user')).statusCode).toBe(200);

    // Resumed at once (the lease was handed back), stopped again after one more step, then
    // cancelled: the next claim sees the cancel before its first step.
    steps = 1;
    const again = new AbortController();
    const stopAfterOne: JobKind = {
      ...terminateJobKind,
      async step(tx, job, limit, now) {
        const step = await terminateJobKind.step(tx, job, limit, now);
        again.abort();
        return step;
      },
    };
    expect(await work(stopAfterOne, { signal: again.signal })).toBe('stopped');
    expect((await c.brmboth!.post(`${JOBS}/${id}/cancel`, {})).statusCode).toBe(200);
    expect(await work()).toBe('finished');
    const cancelled = await view(c.brmboth!, id);
    expect(cancelled.status).toBe('cancelled');
    const reached = cancelled.results.filter((r) => r.result !== NOT_REACHED).map((r) => r.item);
    const notReached = cancelled.results.filter((r) => r.result === NOT_REACHED).map((r) => r.item);
    expect(reached.length + notReached.length).toBe(mine.length);
    expect(reached).toEqual([0, 1, 2, 3, 4, 5]);
    state = await states(mine);
    for (const item of reached)
      expect(state.get(mine[item]!)).toMatchObject({
        status: 'terminated',
        roles: 0,
        terminations: 1,
        live: 0,
      });
    for (const item of notReached)
      expect(state.get(mine[item]!)).toMatchObject({
        status: 'active',
        roles: rolesOf(item),
        terminations: 0,
      });
  });

  it('gives up one failing email (nothing of it changed) and goes on; a lease holder that lost its lease writes nothing', async () => {
    const mine = await vendors(4);
    const id = await start(c.brmacme!, mine);
    const failSecond: JobKind = {
      ...terminateJobKind,
      async step(tx, job, limit, now) {
        const step = await terminateJobKind.step(tx, job, limit, now);
        if (job.cursor <= 1 && job.cursor + limit > 1) throw new Error('the second email fails');
        return step;
      },
    };
    expect(await work(failSecond)).toBe('finished');
    const done = await view(c.brmacme!, id);
    expect(done.status).toBe('done');
    expect(done.results.find((r) => r.item === 1)?.result).toBe(
      'Could not be processed; nothing changed for this email. Try again.',
    );
    const state = await states(mine);
    expect(state.get(mine[1]!)).toMatchObject({ status: 'active', roles: 1, terminations: 0 });
    expect(state.get(mine[2]!)).toMatchObject({ status: 'terminated', roles: 0, terminations: 1 });

    // Two holders: the second cannot claim a leased job; once the lease ran out it can, and the
    // first then finds its lease gone and writes nothing.
    const more = await vendors(2);
    const second = await start(c.brmacme!, more);
    const a = await claimJob(t.ctx.db, {
      holder: 'a',
      kinds: [TERMINATE_JOB],
      now: clock.now(),
      leaseMs: JOB_LEASE_MS,
    });
    expect(a?.id).toBe(second);
    expect(
      await claimJob(t.ctx.db, {
        holder: 'b',
        kinds: [TERMINATE_JOB],
        now: clock.now(),
        leaseMs: JOB_LEASE_MS,
      }),
    ).toBeUndefined();
    clock.advance(JOB_LEASE_MS + 1);
    const b = await claimJob(t.ctx.db, {
      holder: 'b',
      kinds: [TERMINATE_JOB],
      now: clock.now(),
      leaseMs: JOB_LEASE_MS,
    });
    expect(b?.id).toBe(second);
    const signal = new AbortController().signal;
    expect(await runJob(t.ctx.db, terminateJobKind, a!, 'a', { clock, signal })).toBe('leaseLost');
    expect((await view(c.brmacme!, second)).done).toBe(0);
    expect(await runJob(t.ctx.db, terminateJobKind, b!, 'b', { clock, signal })).toBe('finished');
    expect((await view(c.brmacme!, second)).done).toBe(2);
  });

  it('stops, failed, when its owner may no longer terminate vendors', async () => {
    const mine = await vendors(2);
    const id = await start(c.brmacme!, mine);
    await t.ctx.db
      .updateTable('accounts')
      .set({ is_employee_brm: false })
      .where('username', '=', 'brmacme')
      .execute();
    try {
      expect(await work()).toBe('finished');
      const failed = await t.ctx.db
        .selectFrom('jobs')
        .select(['status', 'error'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(failed).toEqual({ status: 'failed', error: terminateJobMessages.ownerRefused });
      const state = await states(mine);
      for (const email of mine) expect(state.get(email)).toMatchObject({ status: 'active', terminations: 0 });
    } finally {
      await t.ctx.db
        .updateTable('accounts')
        .set({ is_employee_brm: true })
        .where('username', '=', 'brmacme')
        .execute();
    }
  });

  it.runIf(kind === 'postgres')(
    'killed mid-step (its PostgreSQL connection terminated) leaves every account terminated or untouched, exactly as its lines say, and resumes',
    async () => {
      const mine = await vendors(10);
      const id = await start(c.brmboth!, mine);
      let steps = 0;
      const killThird: JobKind = {
        ...terminateJobKind,
        async step(tx, job, limit, now) {
          const step = await terminateJobKind.step(tx, job, limit, now);
          // The third step has changed its accounts when its connection dies, before COMMIT.
          if ((steps += 1) === 3) await sql`select pg_terminate_backend(pg_backend_pid())`.execute(tx);
          return step;
        },
      };
      await expect(work(killThird)).rejects.toThrow();
      const killed = await view(c.brmboth!, id);
      expect(killed).toMatchObject({ status: 'running', done: 4 });
      let state = await states(mine);
      const written = new Set(killed.results.map((r) => r.item));
      mine.forEach((email, item) =>
        expect(state.get(email)).toMatchObject(
          written.has(item)
            ? { status: 'terminated', roles: 0, terminations: 1, live: 0 }
            : { status: 'active', roles: rolesOf(item), terminations: 0 },
        ),
      );
      // Resumed by the same holder at once, or by another once the lease ran out.
      clock.advance(JOB_LEASE_MS + 1);
      expect(await work()).toBe('finished');
      const finished = await view(c.brmboth!, id);
      expect(finished).toMatchObject({ status: 'done', done: 10 });
      expect(new Set(finished.results.map((r) => r.item)).size).toBe(10);
      state = await states(mine);
      for (const email of mine)
        expect(state.get(email)).toMatchObject({ status: 'terminated', roles: 0, terminations: 1 });
    },
  );
});
