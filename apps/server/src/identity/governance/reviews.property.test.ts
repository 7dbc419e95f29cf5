// Preview equals outcome (GOVERNANCE.md §4.9): for random vendors, grants (some in an organization
// not under review), decisions, vendor answers, last sign-ins and default actions, the preview of a
// cycle taken at the close's instant names exactly the grants the close then removes and the
// accounts it disables. On the embedded database; a failure prints fast-check's seed and path:
// replay with REVIEW_PROPERTY_SEED=<seed> (and REVIEW_PROPERTY_PATH=<path>).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { addDays, endOfLocalDay, localDate, localInstant } from '../../platform/local-time';
import * as store from '../../store/reviews';
import { closeCampaigns, previewCycle, reviewSweep, startCycle } from './reviews';

const ZONE = 'America/New_York';
const DAY = 86_400_000;
const ORGS = 3; // the last one is never under review

const vendorArb = fc.record({
  grants: fc.array(fc.boolean(), { minLength: ORGS, maxLength: ORGS }),
  decisions: fc.array(fc.constantFrom('none', 'keep', 'keepUntil', 'remove'), {
    minLength: ORGS,
    maxLength: ORGS,
  }),
  answer: fc.constantFrom(null, 'yes', 'no'),
  signedInDaysAgo: fc.option(fc.integer({ min: 0, max: 200 })),
  status: fc.constantFrom('active', 'active', 'pendingActivation', 'disabled'),
});
const worldArb = fc.record({
  vendors: fc.array(vendorArb, { minLength: 1, maxLength: 6 }),
  defaultAction: fc.constantFrom('remove', 'keep', 'recommendation'),
});

describe('access reviews: preview equals outcome (pglite)', () => {
  let t: TestApp;
  const clock = new TestClock(localInstant('2027-01-04', { hour: 9, minute: 0, second: 0 }, ZONE));
  let run = 0;

  beforeAll(async () => {
    t = await createTestApp('pglite', {}, { clock });
  });
  afterAll(async () => t?.close());

  it('removes and disables exactly what the preview said', async () => {
    const seed = process.env.REVIEW_PROPERTY_SEED;
    const path = process.env.REVIEW_PROPERTY_PATH;
    await fc.assert(
      fc.asyncProperty(worldArb, async (world) => {
        run += 1;
        clock.advance('P30D');
        const db = t.ctx.db;
        const admin = { id: null, username: 'property' };
        const brm = await createAccount(t, { username: `p${run}brm`, type: 'employee', isEmployeeBrm: true });
        const orgs: string[] = [];
        for (let o = 0; o < ORGS; o++) {
          orgs.push(await addOrganization(t, `Prop ${run} Org ${o}`));
          await assignBrm(t, brm, orgs[o]!);
        }
        const far = endOfLocalDay(addDays(localDate(clock.now(), ZONE), 365), ZONE);
        const accounts: string[] = [];
        for (const [i, v] of world.vendors.entries()) {
          const id = await createAccount(t, { username: `p${run}v${i}`, status: v.status });
          accounts.push(id);
          await db
            .updateTable('accounts')
            .set({
              last_sign_in_at:
                v.signedInDaysAgo === null ? null : new Date(clock.now().getTime() - v.signedInDaysAgo * DAY),
              created_at: new Date(clock.now().getTime() - 300 * DAY),
            })
            .where('id', '=', id)
            .execute();
          for (let o = 0; o < ORGS; o++)
            if (v.grants[o])
              await db
                .insertInto('role_grants')
                .values({
                  account_id: id,
                  organization_id: orgs[o]!,
                  granted_by: null,
                  request_item_id: null,
                  expires_at: far,
                })
                .execute();
        }
        const sweepView = () => reviewSweep({ db, clock, config: t.ctx.config, log: t.app.log });
        const reviewed = orgs.slice(0, ORGS - 1);
        const hasGrants = world.vendors.some((v) => v.grants.slice(0, ORGS - 1).some(Boolean));
        if (!hasGrants) return;
        const { cycleId } = await startCycle(await sweepView(), admin, {
          name: `Prop ${run}`,
          organizationIds: reviewed,
          defaultAction: world.defaultAction,
          vendorConfirmation: true,
        });
        const items = await db
          .selectFrom('review_items')
          .innerJoin('review_campaigns', 'review_campaigns.id', 'review_items.campaign_id')
          .select(['review_items.id', 'review_items.account_id', 'review_items.organization_id'])
          .where('review_campaigns.cycle_id', '=', cycleId!)
          .execute();
        await db.transaction().execute(async (tx) => {
          for (const item of items) {
            const v = world.vendors[accounts.indexOf(item.account_id)]!;
            const d = v.decisions[orgs.indexOf(item.organization_id)]!;
            if (v.answer)
              await store.setVendorAnswer(tx, item.id, {
                answer: v.answer,
                comment: null,
                at: clock.now(),
              });
            if (d === 'none') continue;
            await store.setDecision(tx, item.id, {
              status: d === 'keep' ? 'kept' : d === 'keepUntil' ? 'keptUntil' : 'removed',
              keepUntil: d === 'keepUntil' ? new Date(clock.now().getTime() + 20 * DAY) : null,
              reason: d === 'remove' ? 'Not needed' : null,
              by: brm,
              at: clock.now(),
            });
          }
        });
        // The close's instant: the due date's last second. Preview then, and close at that moment.
        const due = await db
          .selectFrom('review_cycles')
          .select('due_at')
          .where('id', '=', cycleId!)
          .executeTakeFirstOrThrow();
        clock.set(new Date(due.due_at));
        const preview = await previewCycle(await sweepView(), cycleId!, admin);
        // The sweep's close step alone: a whole sweep also runs the dormancy steps, which close
        // never-activated accounts (ending their grants) by a rule of their own, not the review's.
        await closeCampaigns.run(await sweepView());

        const usernameOf = (id: string) => `p${run}v${accounts.indexOf(id)}`;
        const orgName = (id: string) => `Prop ${run} Org ${orgs.indexOf(id)}`;
        const ended = await db
          .selectFrom('grant_history')
          .select(['account_id', 'organization_id', 'end_reason'])
          .where('account_id', 'in', accounts)
          .execute();
        const removedNow = ended
          .map((g) => `${usernameOf(g.account_id)}@${orgName(g.organization_id)}`)
          .sort();
        const removedSaid = preview.organizations
          .flatMap((o) => o.removals.map((r) => `${r.username}@${o.organization}`))
          .sort();
        expect(removedNow).toEqual(removedSaid);
        const byDefaultNow = ended.filter((g) => g.end_reason === 'defaultRemoved').length;
        expect(byDefaultNow).toBe(preview.organizations.reduce((n, o) => n + o.wouldBeRemoved, 0));
        const disabledNow = (
          await db
            .selectFrom('accounts')
            .select('username')
            .where('id', 'in', accounts)
            .where('disabled_reason', '=', 'noAccess')
            .execute()
        )
          .map((a) => a.username)
          .sort();
        const disabledSaid = [
          ...new Set(
            preview.organizations.flatMap((o) =>
              o.removals.filter((r) => r.disablesAccount).map((r) => r.username),
            ),
          ),
        ].sort();
        expect(disabledNow).toEqual(disabledSaid);
        expect(disabledNow.length).toBe(
          new Set(
            preview.organizations.flatMap((o) =>
              o.removals.filter((r) => r.disablesAccount).map((r) => r.username),
            ),
          ).size,
        );
      }),
      {
        numRuns: 15,
        ...(seed ? { seed: Number(seed) } : {}),
        ...(path ? { path } : {}),
        verbose: true,
      },
    );
  }, 240_000);
});
