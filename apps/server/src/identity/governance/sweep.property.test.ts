// The sweep's invariants under random sequences (GOVERNANCE.md §3.9): advance the clock, approve
// (grant), extend, remove and sweep in any order; after every sweep no grant is current past its
// end, no milestone mail went out twice (expiry notices and inactivity warnings), and an account is disabled for no access exactly when it
// holds no current grant. On the embedded database (fast); a failure prints fast-check's seed and
// path: replay with GOVERNANCE_PROPERTY_SEED=<seed> (and GOVERNANCE_PROPERTY_PATH=<path>).
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { addDays, endOfLocalDay, localDate, localInstant } from '../../platform/local-time';
import { grantRole, removeRole } from '../roles';
import { sweepNow } from './sweeper';

const ZONE = 'America/New_York';
const HOUR = 3_600_000;
const VENDORS = 3;
const ORGS = 2;

type Command =
  | { do: 'advance'; hours: number }
  | { do: 'approve'; vendor: number; org: number; days: number }
  | { do: 'extend'; vendor: number; org: number; days: number }
  | { do: 'remove'; vendor: number; org: number }
  | { do: 'sweep' };

const vendor = fc.integer({ min: 0, max: VENDORS - 1 });
const org = fc.integer({ min: 0, max: ORGS - 1 });
const days = fc.integer({ min: 1, max: 40 });
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    arbitrary: fc.record({
      do: fc.constant('advance' as const),
      hours: fc.integer({ min: 1, max: 24 * 20 }),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ do: fc.constant('approve' as const), vendor, org, days }), weight: 2 },
  { arbitrary: fc.record({ do: fc.constant('extend' as const), vendor, org, days }), weight: 2 },
  { arbitrary: fc.record({ do: fc.constant('remove' as const), vendor, org }), weight: 1 },
  { arbitrary: fc.constant({ do: 'sweep' as const }), weight: 3 },
);

describe('the governance sweep under random sequences (pglite)', () => {
  let t: TestApp;
  const clock = new TestClock(localInstant('2027-01-04', { hour: 9, minute: 0, second: 0 }, ZONE));
  let run = 0;

  beforeAll(async () => {
    t = await createTestApp('pglite', {}, { clock });
  });
  afterAll(async () => t?.close());

  it('keeps its invariants', async () => {
    const seed = process.env.GOVERNANCE_PROPERTY_SEED;
    const path = process.env.GOVERNANCE_PROPERTY_PATH;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 14 }), async (commands) => {
        run += 1;
        // Each run has its own people and organizations, and starts long after the last one ended.
        clock.advance('P400D');
        const db = t.ctx.db;
        const brmId = await createAccount(t, {
          username: `r${run}brm`,
          type: 'employee',
          isEmployeeBrm: true,
        });
        const brm = { id: brmId, username: `r${run}brm` };
        const orgs: string[] = [];
        for (let o = 0; o < ORGS; o++) {
          orgs.push(await addOrganization(t, `Run ${run} Org ${o}`));
          await assignBrm(t, brmId, orgs[o]!);
        }
        const vendors: { id: string; username: string }[] = [];
        const endOn = (n: number) => endOfLocalDay(addDays(localDate(clock.now(), ZONE), n), ZONE);
        const give = (v: { id: string; username: string }, o: number, n: number) =>
          db.transaction().execute((tx) =>
            grantRole(tx, {
              actor: brm,
              account: v,
              organizationId: orgs[o]!,
              requestItemId: null,
              clientAddress: '127.0.0.1',
              at: clock.now(),
              expiresAt: endOn(n),
            }),
          );
        for (let i = 0; i < VENDORS; i++) {
          const username = `r${run}v${i}`;
          const v = { id: await createAccount(t, { username }), username };
          vendors.push(v);
          await give(v, i % ORGS, 5 + i * 7); // every vendor starts with access
        }
        const ids = vendors.map((v) => v.id);
        const grantsOf = (id: string) =>
          db.selectFrom('role_grants').selectAll().where('account_id', '=', id).execute();
        const statusOf = (id: string) =>
          db
            .selectFrom('accounts')
            .select(['status', 'disabled_reason'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow();

        const check = async (sweptAt: Date) => {
          // 1. No grant is current past its end.
          const current = await db
            .selectFrom('role_grants')
            .selectAll()
            .where('account_id', 'in', ids)
            .execute();
          for (const g of current)
            expect(new Date(g.expires_at).getTime()).toBeGreaterThan(sweptAt.getTime());
          for (const v of vendors) {
            // 2. Disabled for no access ⇔ no current grant (terminated accounts hold none either).
            const held = current.filter((g) => g.account_id === v.id).length;
            const a = await statusOf(v.id);
            if (a.status === 'terminated') expect(held).toBe(0);
            else expect(a.status === 'disabled' && a.disabled_reason === 'noAccess').toBe(held === 0);
            // 3. No milestone mail twice: each mail matches one notice or one event, once.
            const mails = await db
              .selectFrom('outbox')
              .select(['template', 'subject', 'text_body'])
              .where('recipient', '=', `${v.username}@example.test`)
              .execute();
            const count = (template: string) => mails.filter((m) => m.template === template).length;
            const notices = await db
              .selectFrom('governance_notices')
              .select(['subject_id', 'milestone'])
              .where('kind', '=', 'grant.expiry')
              .where('subject_id', 'like', `${v.id}/%`)
              .where('skipped', '=', false)
              .execute();
            expect(count('access-ending')).toBe(notices.length);
            const series = new Map<string, string[]>();
            for (const m of mails.filter((m) => m.template === 'access-ending')) {
              const left = /\((\d+) days? left\)/.exec(m.text_body)?.[1] ?? '?';
              series.set(m.subject, [...(series.get(m.subject) ?? []), left]);
            }
            for (const lefts of series.values()) {
              expect(lefts.length).toBeLessThanOrEqual(3);
              expect(new Set(lefts).size).toBe(lefts.length);
            }
            const expired = await db
              .selectFrom('grant_history')
              .select('organization_id')
              .where('account_id', '=', v.id)
              .where('end_reason', '=', 'expired')
              .execute();
            expect(count('access-ended')).toBe(expired.length);
            // Only the sweep's disables for no access: an account it disabled for inactivity (4.)
            // gets the other mail, also while it still holds a grant.
            const disables = await db
              .selectFrom('audit_events')
              .select('id')
              .where('action', '=', 'account.disable')
              .where('target_id', '=', v.id)
              .where(sql`details->>'reason'`, '=', 'noAccess')
              .execute();
            expect(count('account-disabled-no-access')).toBe(disables.length);
            expect(count('account-closed')).toBe(a.status === 'terminated' ? 1 : 0);
            // 4. Inactivity (§6.3, set-based batches): a warning mail per warning recorded as sent,
            // a disable mail per inactivity disable event.
            const warnings = await db
              .selectFrom('governance_notices')
              .select('milestone')
              .where('kind', '=', 'account.inactivity')
              .where('subject_id', 'like', `${v.id}/%`)
              .where('skipped', '=', false)
              .execute();
            expect(count('inactivity-warning')).toBe(warnings.length);
            const inactive = await db
              .selectFrom('audit_events')
              .select('id')
              .where('action', '=', 'account.disable')
              .where('target_id', '=', v.id)
              .where(sql`details->>'reason'`, '=', 'inactive')
              .execute();
            expect(count('account-disabled-inactive')).toBe(inactive.length);
          }
          // The BRM's digest: at most one a day, each recorded once.
          const digests = await db
            .selectFrom('outbox')
            .select('id')
            .where('recipient', '=', `${brm.username}@example.test`)
            .where('template', '=', 'access-digest')
            .execute();
          const digestNotices = await db
            .selectFrom('governance_notices')
            .select('milestone')
            .where('kind', '=', 'digest.brm')
            .where('subject_id', '=', brmId)
            .execute();
          expect(digests.length).toBe(digestNotices.length);
        };

        const sweep = async () => {
          const result = await sweepNow({ db, clock, config: t.ctx.config, log: t.app.log });
          expect(result.ran).toBe(true);
          for (const outcome of Object.values(result.steps)) expect(outcome).not.toHaveProperty('error');
          await check(result.at);
        };

        for (const c of commands) {
          if (c.do === 'advance') clock.advance(c.hours * HOUR);
          else if (c.do === 'sweep') await sweep();
          else {
            const v = vendors[c.vendor]!;
            const a = await statusOf(v.id);
            if (a.status === 'terminated') continue; // its requests were cancelled: nothing to approve
            const held = await grantsOf(v.id);
            const grant = held.find((g) => g.organization_id === orgs[c.org]);
            if (c.do === 'approve') await give(v, c.org, c.days);
            else if (c.do === 'extend') {
              // An extension approved before the end moves the end; after it, re-grants (§3.3).
              if (grant && new Date(grant.expires_at) > clock.now()) {
                if (endOn(c.days) > new Date(grant.expires_at)) {
                  await db
                    .updateTable('role_grants')
                    .set({ expires_at: endOn(c.days), sponsor_id: brmId })
                    .where('account_id', '=', v.id)
                    .where('organization_id', '=', orgs[c.org]!)
                    .execute();
                }
              } else if (!grant) await give(v, c.org, c.days);
            } else if (grant && held.length > 1) {
              // The last organization cannot be removed by a person (spec); time may end it.
              await db.transaction().execute((tx) =>
                removeRole(tx, {
                  actor: brm,
                  account: v,
                  organizationId: orgs[c.org]!,
                  requestItemId: null,
                  clientAddress: '127.0.0.1',
                  at: clock.now(),
                }),
              );
            }
          }
        }
        await sweep();
      }),
      {
        numRuns: Number(process.env.GOVERNANCE_PROPERTY_RUNS ?? 15),
        ...(seed ? { seed: Number(seed) } : {}),
        ...(path ? { path } : {}),
        endOnFailure: true,
      },
    );
  }, 120_000);
});
