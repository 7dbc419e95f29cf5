import { createHash } from 'node:crypto';
import { reviewMessages, type BrmReviews, type ReviewPreview } from '@pra/contracts';
import {
  answerAccessConfirmation,
  decideAccessReviews,
  getAccessConfirmation,
  getAccessReviews,
  getAdminReviews,
  previewReviewCycle,
  reviewEvidenceCsv,
  reviewEvidenceJson,
  startReviewCycle,
} from '@pra/contracts/endpoints/access-reviews';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import {
  addStaff,
  assignBrms,
  mailsSince,
  signInAll,
  type StaffFlags,
} from '../../../test/support/brm-world';
import { refusedBut, statusesOf } from '../../../test/support/role-matrix';
import { createAccount } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { addDays, endOfLocalDay, localInstant } from '../../platform/local-time';
import { sweepNow } from '../../identity/governance/sweeper';

// Access reviews (GOVERNANCE.md §4) with the test clock, on both engines: a campaign's lifecycle
// (open snapshot, reminders, escalation, close with decisions and the default, evidence), who may
// call what, and the races the close must win cleanly.

const ZONE = 'America/New_York';
const morningOf = (date: string) => localInstant(date, { hour: 10, minute: 0, second: 0 }, ZONE);
const OPEN = '2027-04-01';
const INFOSEC = 'infosec@hospital.test';

describe.each(testDatabaseKinds)('access reviews on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(morningOf(OPEN));
  const ids: Record<string, string> = {};
  const c: Record<string, TestClient> = {};
  const sweep = () => sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
  const day = (n: number) => clock.set(morningOf(addDays(OPEN, n)));

  // The weekly activity review's mails to InfoSec (the clock crosses Mondays here) are
  // activity-review.test.ts's subject, not this one's.
  const newMails = mailsSince(() => t, {
    ignoreTemplates: ['activity-review-ready', 'activity-review-reminder'],
  });
  async function grant(account: string, org: string, endsOn = '2027-12-31') {
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: ids[account]!,
        organization_id: ids[org]!,
        granted_by: null,
        request_item_id: null,
        expires_at: endOfLocalDay(endsOn, ZONE),
      })
      .execute();
  }
  const grantsOf = (account: string) =>
    t.ctx.db.selectFrom('role_grants').selectAll().where('account_id', '=', ids[account]!).execute();
  const statusOf = async (account: string) =>
    (
      await t.ctx.db
        .selectFrom('accounts')
        .select('status')
        .where('id', '=', ids[account]!)
        .executeTakeFirstOrThrow()
    ).status;
  const reviewsOf = async (who: string, query: Record<string, string> = {}) =>
    (await c[who]!.call(getAccessReviews, { query })).json<BrmReviews>();
  const itemOf = async (who: string, username: string, campaignId?: string) =>
    (await reviewsOf(who, campaignId ? { campaignId, pageSize: '100' } : { pageSize: '100' })).items.find(
      (i) => i.username === username,
    );
  const auditCount = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom('audit_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestApp(kind, { INFOSEC_EMAIL: INFOSEC }, { clock });
    ids.acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    ids.globex = await addOrganization(t, 'Globex Health IT', ['globex.example']);
    ids.orphan = await addOrganization(t, 'Orphan Devices', ['orphan.example']);
    const staff: [string, StaffFlags][] = [
      ['primary', { isEmployeeBrm: true }],
      ['backup', { isEmployeeBrm: true }],
      ['away', { isEmployeeBrm: true }],
      ['deleg', { isEmployeeBrm: true }],
      ['globexbrm', { isEmployeeBrm: true }],
      ['admin', { isAdmin: true }],
      ['auditor', {}],
    ];
    await addStaff(t, ids, staff);
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', ids.auditor!).execute();
    await assignBrms(t, ids, [
      ['primary', 'acme', 'primary'],
      ['away', 'acme', 'primary'],
      ['backup', 'acme', 'backup'],
      ['deleg', 'globex', 'primary'],
      ['deleg', 'acme', 'backup'],
      ['globexbrm', 'globex', 'primary'],
    ]);
    // 'away' (a primary BRM of Acme) hands its approvals and reviews to 'deleg' (Acme's backup).
    await t.ctx.db
      .insertInto('brm_delegations')
      .values({
        delegator_id: ids.away!,
        delegate_id: ids.deleg!,
        starts_at: morningOf(addDays(OPEN, -1)),
        ends_at: morningOf(addDays(OPEN, 60)),
        reason: 'Leave',
        created_at: morningOf(addDays(OPEN, -1)),
      })
      .execute();
    for (const v of ['keeper', 'remover', 'silent', 'twoorgs', 'answerer', 'orphanv', 'late'])
      ids[v] = await createAccount(t, { username: v });
    for (const v of ['keeper', 'remover', 'silent', 'twoorgs', 'answerer']) await grant(v, 'acme');
    await grant('twoorgs', 'globex');
    await grant('orphanv', 'orphan');
    await signInAll(t, c, [
      ...staff.map(([n]) => n),
      'keeper',
      'remover',
      'silent',
      'twoorgs',
      'answerer',
      'orphanv',
    ]);
    c.anonymous = new TestClient(t.app);
    await c.anonymous.fetchCsrf();
    await sweep(); // the delegation's own start mail
    await newMails();
  });
  afterAll(async () => t?.close());

  let cycleId = '';
  let acmeCampaign = '';

  it('previews a cycle before it starts (nothing written), then starts it and opens one campaign per organization', async () => {
    const body = {
      name: '2027 Q2 vendor access review',
      organizationIds: [ids.acme!, ids.orphan!],
      defaultAction: 'remove' as const,
      vendorConfirmation: true,
    };
    const dry = await c.admin!.call(startReviewCycle, { body: { ...body, previewOnly: true } });
    expect(dry.statusCode).toBe(200);
    const preview = dry.json<{ cycleId: null; preview: ReviewPreview }>();
    expect(preview.cycleId).toBeNull();
    const acme = preview.preview.organizations.find((o) => o.organization === 'Acme Imaging')!;
    expect(acme).toMatchObject({
      items: 5,
      decided: 0,
      wouldBeRemoved: 5,
      wouldBeDisabled: 4,
      wouldBeKept: 0,
    });
    expect(acme.removals.find((r) => r.username === 'twoorgs')).toMatchObject({ disablesAccount: false });
    expect(await t.ctx.db.selectFrom('review_cycles').selectAll().execute()).toEqual([]);

    const started = await c.admin!.call(startReviewCycle, { body });
    expect(started.statusCode).toBe(200);
    cycleId = started.json<{ cycleId: string }>().cycleId;
    const list = (await c.admin!.call(getAdminReviews)).json<{
      campaigns: { id: string; organization: string; status: string; dueOn: string }[];
      organizationsWithoutBrm: { id: string; name: string }[];
    }>();
    expect(list.campaigns.map((x) => [x.organization, x.status, x.dueOn])).toEqual([
      ['Acme Imaging', 'open', '2027-04-15'],
      ['Orphan Devices', 'open', '2027-04-15'],
    ]);
    // The admin's Reviews page lists the organizations with no BRM (§4.8): InfoSec reviews them.
    const withoutBrm = list.organizationsWithoutBrm.map((o) => o.id);
    expect([ids.acme, ids.globex, ids.orphan].map((id) => withoutBrm.includes(id!))).toEqual([
      false,
      false,
      true,
    ]);
    acmeCampaign = list.campaigns[0]!.id;
    const mails = await newMails();
    // R1 to Acme's BRMs only (the orphan organization's to InfoSec), R4 to each vendor.
    expect(
      mails
        .filter((m) => m.template === 'review-opened')
        .map((m) => m.to)
        .sort(),
    ).toEqual(
      [
        'away@example.test',
        'backup@example.test',
        'deleg@example.test',
        INFOSEC,
        'primary@example.test',
      ].sort(),
    );
    expect(mails.find((m) => m.to === 'primary@example.test')!.subject).toBe(
      'Action required: review vendor access for Acme Imaging by 2027-04-15',
    );
    expect(
      mails
        .filter((m) => m.template === 'review-confirm-access')
        .map((m) => m.to)
        .sort(),
    ).toEqual(
      ['answerer', 'keeper', 'orphanv', 'remover', 'silent', 'twoorgs'].map((v) => `${v}@example.test`),
    );
    // A second start for an organization under review is refused.
    const again = await c.admin!.call(startReviewCycle, { body });
    expect([again.statusCode, again.json()]).toEqual([
      409,
      { errors: [reviewMessages.alreadyOpen('Acme Imaging')] },
    ]);
  });

  it('snapshots the grants at open: a grant given during the campaign is not in it', async () => {
    await grant('late', 'acme');
    // A registered security key or passkey (webauthn_credentials) is the item's sign-in method.
    await t.ctx.db
      .insertInto('webauthn_credentials')
      .values({
        account_id: ids.remover!,
        credential_id: 'cred-remover',
        public_key: 'pk',
        device_type: 'singleDevice',
        backed_up: false,
        aaguid: '00000000-0000-0000-0000-000000000000',
        nickname: 'Key',
        created_at: clock.now(),
      })
      .execute();
    const page = await reviewsOf('primary', { pageSize: '100' });
    expect(page.campaigns.map((x) => [x.organization, x.total, x.decided])).toEqual([['Acme Imaging', 5, 0]]);
    expect(page.items.map((i) => i.username).sort()).toEqual([
      'answerer',
      'keeper',
      'remover',
      'silent',
      'twoorgs',
    ]);
    expect(page.undecided).toBe(5);
    expect((await reviewsOf('primary', { countOnly: 'true' })).undecided).toBe(5);
    const keeper = page.items.find((i) => i.username === 'keeper')!;
    expect(keeper).toMatchObject({
      lastSignIn: OPEN,
      signInMethod: 'None',
      vendorSays: 'No answer',
      recommendation: 'Keep',
      decision: null,
      accessEnds: '2027-12-31',
    });
    expect(page.items.find((i) => i.username === 'remover')!.signInMethod).toBe('Security key');
  });

  it('lets only the right people decide: BRMs of the organization and the delegate now, backups and InfoSec after escalation', async () => {
    const item = (await itemOf('primary', 'keeper'))!;
    const tryKeep = (who: string) =>
      c[who]!.call(decideAccessReviews, { body: { itemIds: [item.id], decision: 'keep' } });
    const refused = ['backup', 'globexbrm', 'admin', 'auditor', 'keeper', 'anonymous'] as const;
    expect(await statusesOf(refused, tryKeep)).toEqual(refusedBut(refused, {}));
    // The delegate of Acme's 'away' BRM decides for it.
    expect((await tryKeep('deleg')).statusCode).toBe(200);
    expect((await reviewsOf('globexbrm')).campaigns).toEqual([]);
    expect((await reviewsOf('backup')).campaigns).toEqual([]);
    const denied = await t.ctx.db
      .selectFrom('audit_events')
      .select('actor_username')
      .where('action', '=', 'review.decide')
      .where('outcome', '=', 'denied')
      .execute();
    expect(denied.map((d) => d.actor_username).sort()).toEqual(['admin', 'backup', 'globexbrm']);
  });

  it('the BRM keeps one and removes another with a reason; the vendor answers; bulk decisions report partial results', async () => {
    const keeper = (await itemOf('primary', 'keeper'))!;
    const remover = (await itemOf('primary', 'remover'))!;
    const noReason = await c.primary!.call(decideAccessReviews, {
      body: { itemIds: [remover.id], decision: 'remove' },
    });
    expect([noReason.statusCode, noReason.json()]).toEqual([
      400,
      { errors: [reviewMessages.reasonRequired] },
    ]);
    const kept = await c.primary!.call(decideAccessReviews, {
      body: { itemIds: [keeper.id], decision: 'keep' },
    });
    expect(kept.json()).toMatchObject({ success: true, message: 'Decisions saved for 1' });
    const removed = await c.primary!.call(decideAccessReviews, {
      body: { itemIds: [remover.id], decision: 'remove', reason: 'Contract ended' },
    });
    expect(removed.statusCode).toBe(200);
    const tooLate = await c.primary!.call(decideAccessReviews, {
      body: { itemIds: [keeper.id], decision: 'keepUntil', keepUntil: '2028-06-01' },
    });
    expect([tooLate.statusCode, tooLate.json()]).toEqual([400, { errors: [reviewMessages.keepUntilLater] }]);
    const orphanItem = (await reviewsOf('admin')).campaigns.find((x) => x.organization === 'Orphan Devices');
    expect(orphanItem).toBeDefined(); // no BRM: InfoSec decides from the start

    const asked = (await c.answerer!.call(getAccessConfirmation)).json<{
      items: { itemId: string; organization: string }[];
    }>();
    expect(asked.items.map((i) => i.organization)).toEqual(['Acme Imaging']);
    const answered = await c.answerer!.call(answerAccessConfirmation, {
      body: { itemId: asked.items[0]!.itemId, stillNeeded: false, comment: 'Project done' },
    });
    expect(answered.statusCode).toBe(200);
    expect(await itemOf('primary', 'answerer')).toMatchObject({
      vendorSays: 'No longer needed',
      vendorComment: 'Project done',
      recommendation: 'Remove: vendor no longer needs it',
    });
    // Another vendor's item is not theirs to answer.
    const foreign = await c.keeper!.call(answerAccessConfirmation, {
      body: { itemId: asked.items[0]!.itemId, stillNeeded: true },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('reminds on days 7 and 13 only reviewers with undecided items, escalates on day 10 to InfoSec and the backups and warns the vendors', async () => {
    await newMails();
    day(6);
    await sweep();
    expect(await newMails()).toEqual([]);
    day(7);
    await sweep();
    const reminders = await newMails();
    expect(
      reminders
        .filter((m) => m.template === 'review-reminder')
        .map((m) => m.to)
        .sort(),
    ).toEqual(
      [
        'away@example.test',
        'backup@example.test',
        'deleg@example.test',
        INFOSEC,
        'primary@example.test',
      ].sort(),
    );
    expect(reminders.find((m) => m.to === 'primary@example.test')!.subject).toBe(
      'Reminder: 3 vendor access decisions for Acme Imaging are due by 2027-04-15',
    );
    // R4 again only to vendors still undecided who have not answered (answerer has).
    expect(
      reminders
        .filter((m) => m.template === 'review-confirm-access')
        .map((m) => m.to)
        .sort(),
    ).toEqual(['orphanv', 'silent', 'twoorgs'].map((v) => `${v}@example.test`));
    await sweep();
    expect(await newMails()).toEqual([]);

    // Orphan Devices' item decided: no more reminders there.
    const orphanCampaign = (await reviewsOf('admin')).campaigns.find(
      (x) => x.organization === 'Orphan Devices',
    )!;
    const orphanItem = (await reviewsOf('admin', { campaignId: orphanCampaign.id })).items[0]!;
    expect(
      (await c.admin!.call(decideAccessReviews, { body: { itemIds: [orphanItem.id], decision: 'keep' } }))
        .statusCode,
    ).toBe(200);

    day(10);
    await sweep();
    const escalated = await newMails();
    expect(
      escalated
        .filter((m) => m.template === 'review-escalated')
        .map((m) => m.to)
        .sort(),
    ).toEqual(
      [
        'away@example.test',
        'backup@example.test',
        'deleg@example.test',
        INFOSEC,
        'primary@example.test',
      ].sort(),
    );
    expect(escalated.find((m) => m.template === 'review-escalated')!.subject).toBe(
      'Escalated: 3 undecided vendor access decisions for Acme Imaging (default: remove on 2027-04-15)',
    );
    expect(
      escalated
        .filter((m) => m.template === 'review-access-will-end')
        .map((m) => m.to)
        .sort(),
    ).toEqual(['answerer', 'silent', 'twoorgs'].map((v) => `${v}@example.test`));
    // The backup and InfoSec may decide now; a BRM of another organization still cannot.
    const silent = (await itemOf('primary', 'silent'))!;
    expect((await reviewsOf('backup')).campaigns.map((x) => x.organization)).toEqual(['Acme Imaging']);
    expect(
      (await c.globexbrm!.call(decideAccessReviews, { body: { itemIds: [silent.id], decision: 'keep' } }))
        .statusCode,
    ).toBe(403);
    const backupKeeps = await c.backup!.call(decideAccessReviews, {
      body: { itemIds: [silent.id], decision: 'keep' },
    });
    expect(backupKeeps.statusCode).toBe(200);
    // InfoSec changes the backup's decision while open: last write wins, each audited.
    const adminRemoves = await c.admin!.call(decideAccessReviews, {
      body: { itemIds: [silent.id], decision: 'remove', reason: 'Unknown vendor' },
    });
    expect(adminRemoves.statusCode).toBe(200);
    const changes = await t.ctx.db
      .selectFrom('audit_events')
      .select('actor_username')
      .where('action', '=', 'review.decision-change')
      .execute();
    // (the primary BRM re-decided the delegate's Keep earlier)
    expect(changes.map((x) => x.actor_username)).toEqual(['primary', 'admin']);
    await sweep();
    expect(await newMails()).toEqual([]);
    day(13);
    await sweep();
    // Orphan Devices has nothing undecided: InfoSec, its only reviewer, is not reminded.
    expect(
      (await newMails())
        .filter((m) => m.template === 'review-reminder')
        .map((m) => m.to)
        .sort(),
    ).toEqual(['away@example.test', 'backup@example.test', 'deleg@example.test', 'primary@example.test']);
  });

  it('closes at the due date: decisions and the default applied, last-access accounts disabled, mails sent; a second sweep changes nothing', async () => {
    const previewBefore = (
      await c.admin!.call(previewReviewCycle, { params: { id: cycleId } })
    ).json<ReviewPreview>();
    const acme = previewBefore.organizations.find((o) => o.organization === 'Acme Imaging')!;
    // keeper kept; remover and silent removed by decision; answerer and twoorgs by default.
    expect(acme).toMatchObject({
      items: 5,
      decided: 3,
      wouldBeRemoved: 2,
      wouldBeDisabled: 3,
      wouldBeKept: 1,
    });
    clock.set(localInstant('2027-04-15', { hour: 23, minute: 59, second: 58 }, ZONE));
    await sweep();
    expect((await grantsOf('silent')).length).toBe(1);
    clock.set(endOfLocalDay('2027-04-15', ZONE));
    await sweep();
    expect((await grantsOf('keeper'))[0]).toMatchObject({ last_confirmed_by: ids.primary });
    for (const v of ['remover', 'silent', 'answerer']) {
      expect(await grantsOf(v)).toEqual([]);
      expect(await statusOf(v)).toBe('disabled');
    }
    expect((await grantsOf('twoorgs')).map((g) => g.organization_id)).toEqual([ids.globex]);
    expect(await statusOf('twoorgs')).toBe('active');
    expect((await grantsOf('late')).length).toBe(1);
    const history = await t.ctx.db
      .selectFrom('grant_history')
      .innerJoin('accounts', 'accounts.id', 'grant_history.account_id')
      .select(['accounts.username', 'end_reason', 'ended_by'])
      .orderBy('accounts.username')
      .execute();
    expect(history).toEqual([
      { username: 'answerer', end_reason: 'defaultRemoved', ended_by: null },
      { username: 'remover', end_reason: 'revoked', ended_by: ids.primary },
      { username: 'silent', end_reason: 'revoked', ended_by: ids.admin },
      { username: 'twoorgs', end_reason: 'defaultRemoved', ended_by: null },
    ]);
    const mails = await newMails();
    expect(
      mails
        .filter((m) => m.template === 'review-access-removed')
        .map((m) => m.to)
        .sort(),
    ).toEqual(['answerer', 'remover', 'silent', 'twoorgs'].map((v) => `${v}@example.test`));
    expect(
      mails.find((m) => m.to === 'remover@example.test' && m.template === 'review-access-removed')!.text,
    ).toContain('Contract ended');
    expect(mails.find((m) => m.to === 'twoorgs@example.test')!.text).toContain(
      'no confirmation was received',
    );
    expect(
      mails.find((m) => m.template === 'review-completed' && m.to === 'primary@example.test')!.subject,
    ).toBe('Access review for Acme Imaging completed: 1 kept, 2 removed, 2 removed by default');
    const list = (await c.admin!.call(getAdminReviews)).json<{ campaigns: { status: string }[] }>();
    expect(list.campaigns.map((x) => x.status)).toEqual(['closed', 'closed']);

    const before = await auditCount();
    await sweep();
    expect(await newMails()).toEqual([]);
    expect(await auditCount()).toBe(before);

    const late = await c.primary!.call(decideAccessReviews, {
      body: {
        itemIds: [
          (
            await t.ctx.db
              .selectFrom('review_items')
              .select('id')
              .where('campaign_id', '=', acmeCampaign)
              .executeTakeFirstOrThrow()
          ).id,
        ],
        decision: 'keep',
      },
    });
    expect([late.statusCode, late.json()]).toEqual([409, { errors: [reviewMessages.closed] }]);
  });

  it('exports the evidence as CSV and a manifest whose SHA-256 verifies; admins and auditors only', async () => {
    const csv = await c.admin!.call(reviewEvidenceCsv, { params: { id: acmeCampaign } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toContain('review_id,series,resource');
    expect(lines.find((l) => l.includes(',remover,'))).toContain('Contract ended');
    expect(lines.find((l) => l.includes(',twoorgs,'))).toContain(',noResponse,');
    const manifest = JSON.parse(
      (await c.admin!.call(reviewEvidenceJson, { params: { id: acmeCampaign } })).body,
    );
    expect(manifest.files[0].sha256).toBe(createHash('sha256').update(csv.body, 'utf8').digest('hex'));
    expect(manifest.counts).toMatchObject({ items: 5, kept: 1, removed: 2, removedByDefault: 2 });
    expect(manifest.previewAtStart.organizations[0]).toMatchObject({ items: 5, wouldBeRemoved: 5 });
    expect(manifest.previewAtEscalation.organizations[0]).toMatchObject({ decided: 2 });
    expect(manifest.auditEventIds.length).toBeGreaterThan(10);
    const others = ['primary', 'keeper', 'anonymous'] as const;
    expect(
      await statusesOf(others, (who) =>
        c[who]!.call(who === 'anonymous' ? reviewEvidenceJson : reviewEvidenceCsv, {
          params: { id: acmeCampaign },
        }),
      ),
    ).toEqual(refusedBut(others, {}));
    // The auditor (GOVERNANCE.md §9.3) gets the same file: one implementation (the CLI's too).
    expect((await c.auditor!.call(reviewEvidenceCsv, { params: { id: acmeCampaign } })).body).toBe(csv.body);
  });
});
