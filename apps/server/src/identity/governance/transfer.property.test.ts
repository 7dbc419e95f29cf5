// Transfer Responsibilities' dry run equals its result (GOVERNANCE.md §6.9): over random BRMs,
// assignments (primary or backup), vendors with sponsors, pending approvals and extension
// requests, open and closed access reviews (escalated or not), delegations and successor choices, the counts the preview shows are exactly what the
// transfer then reports, and the database after it agrees (the leaving BRM manages nothing,
// sponsors nothing in the organizations moved, holds no open delegation). On the embedded
// database; a failure prints fast-check's seed: replay with TRANSFER_PROPERTY_SEED=<seed>.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization, addRequest } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { applyTransfer, planTransfer } from './transfer';

const BRMS = 4;
const ORGS = 3;

const scenario = fc.record({
  assignments: fc.array(fc.record({ brm: fc.nat(BRMS - 1), org: fc.nat(ORGS - 1), backup: fc.boolean() }), {
    maxLength: 10,
  }),
  grants: fc.array(fc.record({ org: fc.nat(ORGS - 1), sponsor: fc.option(fc.nat(BRMS - 1)) }), {
    maxLength: 8,
  }),
  items: fc.array(fc.record({ org: fc.nat(ORGS - 1), extend: fc.boolean(), pending: fc.boolean() }), {
    maxLength: 6,
  }),
  reviews: fc.array(
    fc.record({
      org: fc.nat(ORGS - 1),
      open: fc.boolean(),
      escalated: fc.boolean(),
      pending: fc.nat(2),
      decided: fc.nat(1),
    }),
    { maxLength: 3 },
  ),
  delegations: fc.array(fc.record({ from: fc.nat(BRMS - 1), to: fc.nat(BRMS - 1), ended: fc.boolean() }), {
    maxLength: 3,
  }),
  leaving: fc.nat(BRMS - 1),
  choices: fc.array(
    fc.record({ org: fc.nat(ORGS - 1), successor: fc.option(fc.nat(BRMS - 1)), makePrimary: fc.boolean() }),
    { maxLength: 3 },
  ),
  notifyVendors: fc.boolean(),
});

describe('Transfer Responsibilities under random data (pglite)', () => {
  let t: TestApp;
  const clock = new TestClock(new Date('2027-03-01T15:00:00Z'));
  let run = 0;

  beforeAll(async () => {
    t = await createTestApp('pglite', {}, { clock });
  });
  afterAll(async () => t?.close());

  it('answers in its dry run exactly what the transfer then does', async () => {
    const seed = process.env.TRANSFER_PROPERTY_SEED;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        run += 1;
        const db = t.ctx.db;
        const brms: string[] = [];
        for (let b = 0; b < BRMS; b++)
          brms.push(
            await createAccount(t, { username: `p${run}b${b}`, type: 'employee', isEmployeeBrm: true }),
          );
        const orgs: string[] = [];
        for (let o = 0; o < ORGS; o++) orgs.push(await addOrganization(t, `P${run} Org ${o}`));
        const assigned = new Set<string>();
        for (const a of s.assignments) {
          if (assigned.has(`${a.brm}/${a.org}`)) continue;
          assigned.add(`${a.brm}/${a.org}`);
          await db
            .insertInto('brm_assignments')
            .values({
              account_id: brms[a.brm]!,
              organization_id: orgs[a.org]!,
              kind: a.backup ? 'backup' : 'primary',
            })
            .execute();
        }
        for (const [i, g] of s.grants.entries()) {
          const vendor = await createAccount(t, { username: `p${run}v${i}` });
          await db
            .insertInto('role_grants')
            .values({
              account_id: vendor,
              organization_id: orgs[g.org]!,
              granted_by: null,
              sponsor_id: g.sponsor === null ? null : brms[g.sponsor]!,
              request_item_id: null,
              expires_at: new Date(clock.now().getTime() + 90 * 86_400_000),
            })
            .execute();
        }
        for (const item of s.items) {
          const id = await addRequest(t, 'Add Access', [
            [orgs[item.org]!, item.pending ? 'pending' : 'approved'],
          ]);
          if (item.extend)
            await db
              .updateTable('request_items')
              .set({ operation: 'Extend' })
              .where('request_id', '=', id)
              .execute();
        }
        for (const r of s.reviews) {
          const cycle = await db
            .insertInto('review_cycles')
            .values({
              name: 'Random',
              default_action: 'keep',
              vendor_confirmation: false,
              opens_at: clock.now(),
              due_at: new Date(clock.now().getTime() + 86_400_000),
              created_at: clock.now(),
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const campaign = await db
            .insertInto('review_campaigns')
            .values({
              cycle_id: cycle.id,
              organization_id: orgs[r.org]!,
              status: r.open ? 'open' : 'closed',
              opened_at: clock.now(),
              escalated_at: r.escalated ? clock.now() : null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          for (let i = 0; i < r.pending + r.decided; i++)
            await db
              .insertInto('review_items')
              .values({
                campaign_id: campaign.id,
                account_id: await createAccount(t, { username: `p${run}r${cycle.id.slice(0, 8)}${i}` }),
                organization_id: orgs[r.org]!,
                granted_at: clock.now(),
                expires_at: new Date(clock.now().getTime() + 86_400_000),
                status: i < r.pending ? 'pending' : 'kept',
              })
              .execute();
        }
        for (const d of s.delegations) {
          if (d.from === d.to) continue;
          await db
            .insertInto('brm_delegations')
            .values({
              delegator_id: brms[d.from]!,
              delegate_id: brms[d.to]!,
              starts_at: clock.now(),
              ends_at: new Date(clock.now().getTime() + 86_400_000),
              ended_at: d.ended ? clock.now() : null,
            })
            .execute();
        }
        const leaving = brms[s.leaving]!;
        const mine = new Set(s.assignments.filter((a) => a.brm === s.leaving).map((a) => a.org));
        const seen = new Set<number>();
        const choices = s.choices
          .filter((c) => mine.has(c.org) && !seen.has(c.org) && seen.add(c.org) && c.successor !== s.leaving)
          .map((c) => ({
            organizationId: orgs[c.org]!,
            successorId: c.successor === null ? null : brms[c.successor]!,
            makePrimary: c.makePrimary,
          }));

        const { target: _target, ...preview } = await planTransfer(db, leaving, choices);
        const outcome = await db.transaction().execute(async (tx) => {
          try {
            return await applyTransfer(tx, {
              personId: leaving,
              choices,
              notifyVendors: s.notifyVendors,
              actor: { id: null, username: 'system' },
              at: clock.now(),
              site: { hospitalName: 'Test Hospital', publicUrl: 'https://pra.example' },
            });
          } catch (error) {
            return error as Error;
          }
        });
        if (outcome instanceof Error) {
          // Refused only when the preview showed nothing to move.
          expect(outcome.message).toMatch(/Nothing is left to transfer/);
          expect([preview.organizations.length, preview.delegations, preview.vendors]).toEqual([0, 0, 0]);
          return;
        }
        expect(outcome).toEqual(preview);
        // The database agrees.
        expect(
          await db.selectFrom('brm_assignments').selectAll().where('account_id', '=', leaving).execute(),
        ).toEqual([]);
        if (orgs.length && mine.size) {
          const still = await db
            .selectFrom('role_grants')
            .select('account_id')
            .where('sponsor_id', '=', leaving)
            .where(
              'organization_id',
              'in',
              [...mine].map((o) => orgs[o]!),
            )
            .execute();
          expect(still).toEqual([]);
        }
        const open = await db
          .selectFrom('brm_delegations')
          .select('id')
          .where('ended_at', 'is', null)
          .where((eb) => eb.or([eb('delegator_id', '=', leaving), eb('delegate_id', '=', leaving)]))
          .execute();
        expect(open).toEqual([]);
        // A second dry run finds nothing left.
        const again = await planTransfer(db, leaving);
        expect([again.organizations.length, again.delegations, again.vendors]).toEqual([0, 0, 0]);
      }),
      { numRuns: 25, ...(seed ? { seed: Number(seed) } : {}) },
    );
  });
});
