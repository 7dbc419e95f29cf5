import { reviewMessages, type BrmReviews } from '@pra/contracts';
import { createServiceToken } from '@pra/contracts/endpoints/administration';
import {
  answerAccessConfirmation,
  decideAccessReviews,
  getAccessConfirmation,
  getAccessReviews,
  getAdminReviews,
  previewReviewCycle,
  reviewCampaignActions,
  reviewEvidenceCsv,
  reviewEvidenceJson,
  startReviewCycle,
} from '@pra/contracts/endpoints/access-reviews';
import type { Endpoint } from '@pra/contracts/endpoint';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { refusedBut, statusesOf } from '../../../test/support/role-matrix';
import { addOrganization } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { addDays, endOfLocalDay, localInstant } from '../../platform/local-time';
import { sweepNow } from '../../identity/governance/sweeper';

// Access reviews: every new call against every role (service tokens by their scopes), and the
// races: two reviewers on one item, a decision while the sweeper closes, Close Now during escalation.

const ZONE = 'America/New_York';
const morningOf = (date: string) => localInstant(date, { hour: 10, minute: 0, second: 0 }, ZONE);
const OPEN = '2027-06-01';
const ROLES = ['vendor', 'brmA', 'brmB', 'backup', 'delegate', 'admin', 'auditor', 'anonymous'] as const;
type Role = (typeof ROLES)[number];

describe.each(testDatabaseKinds)('access reviews: roles and races on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(morningOf(OPEN));
  const ids: Record<string, string> = {};
  const c: Record<string, TestClient> = {};
  const sweep = () => sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
  let serial = 0;

  async function vendor(username: string, org: string) {
    ids[username] = await createAccount(t, { username });
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: ids[username],
        organization_id: ids[org]!,
        granted_by: null,
        request_item_id: null,
        expires_at: endOfLocalDay('2027-12-31', ZONE),
      })
      .execute();
  }
  /** A new cycle for one fresh organization (BRMs as in beforeAll), open now; its campaign id and item ids. */
  async function campaignFor(vendors: number) {
    serial += 1;
    const org = `org${serial}`;
    ids[org] = await addOrganization(t, `Org ${serial}`);
    for (const [who, k] of [
      ['brmA', 'primary'],
      ['away', 'primary'],
      ['backup', 'backup'],
      ['delegate', 'backup'],
    ] as const)
      await t.ctx.db
        .insertInto('brm_assignments')
        .values({ account_id: ids[who]!, organization_id: ids[org], kind: k })
        .execute();
    for (let i = 0; i < vendors; i += 1) await vendor(`v${serial}x${i}`, org);
    const res = await c.admin!.call(startReviewCycle, {
      body: {
        name: `Cycle ${serial}`,
        organizationIds: [ids[org]],
        defaultAction: 'remove',
        vendorConfirmation: true,
      },
    });
    expect(res.statusCode).toBe(200);
    const cycleId = res.json<{ cycleId: string }>().cycleId;
    const campaign = await t.ctx.db
      .selectFrom('review_campaigns')
      .select('id')
      .where('cycle_id', '=', cycleId)
      .executeTakeFirstOrThrow();
    const items = await t.ctx.db
      .selectFrom('review_items')
      .select(['id', 'account_id'])
      .where('campaign_id', '=', campaign.id)
      .orderBy('id')
      .execute();
    return { cycleId, campaignId: campaign.id, items, org };
  }

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    ids.other = await addOrganization(t, 'Other Org');
    for (const [username, flags] of [
      ['brmA', { isEmployeeBrm: true }],
      ['away', { isEmployeeBrm: true }],
      ['backup', { isEmployeeBrm: true }],
      ['delegate', { isEmployeeBrm: true }],
      ['brmB', { isEmployeeBrm: true }],
      ['admin', { isAdmin: true }],
      ['adminbrm', { isAdmin: true, isEmployeeBrm: true }],
      ['auditor', {}],
    ] as const)
      ids[username] = await createAccount(t, { username, type: 'employee', ...flags });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', ids.auditor!).execute();
    await t.ctx.db
      .insertInto('brm_assignments')
      .values({ account_id: ids.brmB!, organization_id: ids.other, kind: 'primary' })
      .execute();
    await t.ctx.db
      .insertInto('brm_delegations')
      .values({
        delegator_id: ids.away!,
        delegate_id: ids.delegate!,
        starts_at: morningOf(addDays(OPEN, -1)),
        ends_at: morningOf(addDays(OPEN, 80)),
        reason: 'Leave',
        created_at: morningOf(addDays(OPEN, -1)),
      })
      .execute();
    for (const name of ['brmA', 'brmB', 'backup', 'delegate', 'admin', 'adminbrm', 'auditor'])
      c[name] = await signInAs(t, name);
    c.anonymous = new TestClient(t.app);
    await c.anonymous.fetchCsrf();
  });
  afterAll(async () => t?.close());

  it('answers every new call for every role as designed (vendor, BRM of the organization and of another, backup, delegate, admin, auditor, anonymous)', async () => {
    const { cycleId, campaignId, items, org } = await campaignFor(10);
    await vendor('vendor', 'other');
    // The vendor under review: the first item's account.
    const reviewed = await t.ctx.db
      .selectFrom('accounts')
      .select('username')
      .where('id', '=', items[0]!.account_id)
      .executeTakeFirstOrThrow();
    c.vendor = await signInAs(t, reviewed.username);
    const confirmation = (await c.vendor.call(getAccessConfirmation)).json<{ items: { itemId: string }[] }>();
    expect(confirmation.items).toHaveLength(1);
    let next = 0;
    const only = (answered: Partial<Record<Role, number>>) => refusedBut(ROLES, answered);
    const calls: [string, Endpoint, (role: Role) => object, Record<Role, number>][] = [
      [
        'GET reviews',
        getAccessReviews,
        () => ({}),
        only({ brmA: 200, brmB: 200, backup: 200, delegate: 200, admin: 200 }),
      ],
      [
        'POST decide',
        decideAccessReviews,
        () => ({ body: { itemIds: [items[(next += 1)]!.id], decision: 'keep' } }),
        only({ brmA: 200, delegate: 200 }),
      ],
      ['GET confirmation', getAccessConfirmation, () => ({}), only({ vendor: 200 })],
      [
        'POST confirmation',
        answerAccessConfirmation,
        () => ({ body: { itemId: confirmation.items[0]!.itemId, stillNeeded: true } }),
        only({ vendor: 200 }),
      ],
      ['GET admin reviews', getAdminReviews, () => ({}), only({ admin: 200 })],
      [
        'POST start (preview only)',
        startReviewCycle,
        () => ({
          body: {
            name: 'Dry run',
            defaultAction: 'remove',
            vendorConfirmation: false,
            previewOnly: true,
            organizationIds: [ids[org]!],
          },
        }),
        only({ admin: 200 }),
      ],
      ['GET preview', previewReviewCycle, () => ({ params: { id: cycleId } }), only({ admin: 200 })],
      [
        'POST remind',
        reviewCampaignActions.remind,
        () => ({ params: { id: campaignId }, body: {} }),
        only({ admin: 200 }),
      ],
      // Evidence before the close: the admin and the auditor are told it is not ready (409); nobody
      // else gets that far.
      [
        'GET evidence.csv',
        reviewEvidenceCsv,
        () => ({ params: { id: campaignId } }),
        only({ admin: 409, auditor: 409 }),
      ],
      [
        'GET evidence.json',
        reviewEvidenceJson,
        () => ({ params: { id: campaignId } }),
        only({ admin: 409, auditor: 409 }),
      ],
    ];
    const got: Record<string, Record<Role, number>> = {};
    const want: Record<string, Record<Role, number>> = {};
    for (const [name, endpoint, parts, expected] of calls) {
      got[name] = await statusesOf(ROLES, (role) => c[role]!.call(endpoint, parts(role)));
      want[name] = expected;
    }
    expect(got).toEqual(want);
    // What each sees: the BRM of another organization and the backup (before escalation) nothing.
    const seen = async (role: Role) =>
      (await c[role]!.call(getAccessReviews)).json<BrmReviews>().campaigns.map((x) => x.id);
    expect(await seen('brmA')).toEqual([campaignId]);
    expect(await seen('delegate')).toEqual([campaignId]);
    expect(await seen('brmB')).toEqual([]);
    expect(await seen('backup')).toEqual([]);
    // Cancel needs a reason; Close Now then closes it, and the evidence is there for the admin.
    const noReason = await c.admin!.call(reviewCampaignActions.cancel, {
      params: { id: campaignId },
      body: {},
    });
    expect([noReason.statusCode, noReason.json()]).toEqual([
      400,
      { errors: [reviewMessages.cancelReasonRequired] },
    ]);
    expect(
      (await c.auditor!.call(reviewCampaignActions.close, { params: { id: campaignId }, body: {} }))
        .statusCode,
    ).toBe(403);
    expect(
      (await c.admin!.call(reviewCampaignActions.close, { params: { id: campaignId }, body: {} })).statusCode,
    ).toBe(200);
    expect((await c.admin!.call(reviewEvidenceCsv, { params: { id: campaignId } })).statusCode).toBe(200);
  });

  it('answers Close Now and Cancel for every role: only the admin may, and nobody else changes the campaign', async () => {
    const statusOf = async (id: string) =>
      (
        await t.ctx.db
          .selectFrom('review_campaigns')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).status;
    const actions = [
      ['POST close', reviewCampaignActions.close, {}, 'closed'],
      ['POST cancel', reviewCampaignActions.cancel, { reason: 'Started by mistake' }, 'cancelled'],
    ] as const;
    for (const [name, endpoint, body, after] of actions) {
      const { campaignId, items } = await campaignFor(2);
      const reviewed = await t.ctx.db
        .selectFrom('accounts')
        .select('username')
        .where('id', '=', items[0]!.account_id)
        .executeTakeFirstOrThrow();
      c.vendor = await signInAs(t, reviewed.username);
      // The admin last, so every refusal is tried on an open campaign.
      const got = await statusesOf(
        [...ROLES.filter((r) => r !== 'admin'), 'admin' as const],
        async (role) => {
          const res = await c[role]!.call(endpoint, { params: { id: campaignId }, body });
          if (role !== 'admin')
            expect([name, role, await statusOf(campaignId)]).toEqual([name, role, 'open']);
          return res;
        },
      );
      expect([name, got]).toEqual([name, refusedBut(ROLES, { admin: 200 })]);
      expect(await statusOf(campaignId)).toBe(after);
    }
  });

  it('admits service tokens by their scopes only', async () => {
    const token = async (scopes: string[]) =>
      (
        await c.adminbrm!.call(createServiceToken, {
          body: {
            name: `t ${scopes.join(' ')}`,
            scopes: scopes as never,
            expiresAt: new Date(clock.now().getTime() + 86_400_000).toISOString(),
          },
        })
      ).json<{ token: string }>().token;
    const cycles = await token(['review-cycles:read']);
    const reviews = await token(['reviews:read']);
    const get = (url: string, value: string) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${value}` } });
    const tokens = { cycles, reviews };
    const byToken = (url: string) => statusesOf(['cycles', 'reviews'] as const, (k) => get(url, tokens[k]));
    expect(await byToken('/api/admin/reviews')).toEqual({ cycles: 200, reviews: 403 });
    expect(await byToken('/api/brm/access-reviews')).toEqual({ cycles: 403, reviews: 200 });
    expect((await get('/api/vendor/access-confirmation', cycles)).statusCode).toBe(403);
  });

  it('two reviewers deciding one item at once: both saved and audited, one decision remains', async () => {
    const { items } = await campaignFor(1);
    const item = items[0]!.id;
    const [a, b] = await Promise.all([
      c.brmA!.call(decideAccessReviews, { body: { itemIds: [item], decision: 'keep' } }),
      c.delegate!.call(decideAccessReviews, {
        body: { itemIds: [item], decision: 'remove', reason: 'Left the company' },
      }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const row = await t.ctx.db
      .selectFrom('review_items')
      .selectAll()
      .where('id', '=', item)
      .executeTakeFirstOrThrow();
    expect(['keep', 'remove']).toContain(row.decision);
    const events = await t.ctx.db
      .selectFrom('audit_events')
      .select(['action', 'actor_username'])
      .where('action', 'in', ['review.decide', 'review.decision-change'])
      .where('outcome', '=', 'success')
      .where(sql<boolean>`details->>'itemId' = ${item}`)
      .execute();
    expect(events.map((e) => e.action).sort()).toEqual(['review.decide', 'review.decision-change']);
    // The last writer's decision is the one kept.
    const last = events.find((e) => e.action === 'review.decision-change')!.actor_username;
    expect(row.decision).toBe(last === 'brmA' ? 'keep' : 'remove');
  });

  it('a decision arriving while the sweeper closes is either applied or refused with 409 "This access review has closed"', async () => {
    const { campaignId, items } = await campaignFor(6);
    clock.set(endOfLocalDay(addDays(OPEN, 14), ZONE));
    const [, ...answers] = await Promise.all([
      sweep(),
      ...items.map((item) =>
        c.brmA!.call(decideAccessReviews, { body: { itemIds: [item.id], decision: 'keep' } }),
      ),
    ]);
    const rows = await t.ctx.db
      .selectFrom('review_items')
      .selectAll()
      .where('campaign_id', '=', campaignId)
      .orderBy('id')
      .execute();
    items.forEach((item, i) => {
      const answer = answers[i]!;
      const row = rows.find((r) => r.id === item.id)!;
      expect(row.status).toBe('applied');
      if (answer.statusCode === 200) expect([row.applied_action, row.by_default]).toEqual(['kept', false]);
      else {
        expect([answer.statusCode, answer.json()]).toEqual([409, { errors: [reviewMessages.closed] }]);
        expect([row.applied_action, row.by_default]).toEqual(['removed', true]);
      }
    });
    const after = await c.brmA!.call(decideAccessReviews, {
      body: { itemIds: [items[0]!.id], decision: 'remove', reason: 'x' },
    });
    expect([after.statusCode, after.json()]).toEqual([409, { errors: [reviewMessages.closed] }]);
    clock.set(morningOf(OPEN));
  });

  it('Close Now during escalation, with the sweeper running too: each item applied once, one mail each', async () => {
    const { campaignId, items } = await campaignFor(5);
    clock.set(morningOf(addDays(OPEN, 10)));
    await sweep();
    const campaign = await t.ctx.db
      .selectFrom('review_campaigns')
      .selectAll()
      .where('id', '=', campaignId)
      .executeTakeFirstOrThrow();
    expect(campaign.escalated_at).not.toBeNull();
    const [closed] = await Promise.all([
      c.admin!.call(reviewCampaignActions.close, { params: { id: campaignId }, body: {} }),
      sweep(),
    ]);
    expect(closed.statusCode).toBe(200);
    await sweep();
    expect(
      (
        await t.ctx.db
          .selectFrom('review_campaigns')
          .select('status')
          .where('id', '=', campaignId)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('closed');
    const applies = await t.ctx.db
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', 'review.apply')
      .where(sql<boolean>`details->>'campaignId' = ${campaignId}`)
      .execute();
    expect(applies).toHaveLength(items.length);
    for (const item of items) {
      const mails = await t.ctx.db
        .selectFrom('outbox')
        .innerJoin('accounts', 'accounts.email', 'outbox.recipient')
        .select('outbox.id')
        .where('accounts.id', '=', item.account_id)
        .where('outbox.template', '=', 'review-access-removed')
        .execute();
      expect(mails).toHaveLength(1);
    }
    clock.set(morningOf(OPEN));
  });
});
