import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportMessages, type DormantRow, type VendorAccessPage } from '@pra/contracts';
import * as reports from '@pra/contracts/endpoints/reports';
import { exportAccessEnding, getSignInStrength } from '@pra/contracts/endpoints/governance';
import { assignSponsor, getSponsorship } from '@pra/contracts/endpoints/departure';
import { exportAudit, getAuditPage } from '@pra/contracts/endpoints/administration';
import { reviewEvidenceCsv, reviewEvidenceJson } from '@pra/contracts/endpoints/access-reviews';
import { TestClock } from '../../platform/clock';
import { localDate } from '../../platform/local-time';
import { readPolicyBook } from '../../identity/governance/sweep';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm, auditActions } from '../../../test/support/world';
import { inBatches } from '../../http/csv-report';
import { vendorAccessBatch, vendorAccessOrganizations, type VendorAccessCsvRow } from '../../store/reports';

// Administration → Reports (GOVERNANCE.md §9.2, §9.3, §9.5): each report equals the data seeded
// here, its CSV neutralises formula cells and is audited `report.export`, the evidence manifest's
// hash matches its file; the reports-only auditor (no admin flag) reads every report and changes
// nothing; vendors and BRMs are refused; bad query input answers 400 with its message.

const START = new Date('2027-06-15T14:00:00Z'); // 10:00 in New York
const DAY = 86_400_000;
const ago = (days: number) => new Date(START.getTime() - days * DAY);
const NOT_ADMIN = 'Unauthorized: User is not an admin';
const errorsOf = (body: string) => (JSON.parse(body) as { errors: string[] }).errors;

describe.each(testDatabaseKinds)('reports for auditors on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(START);
  const ids: Record<string, string> = {};
  const c: Record<string, TestClient> = {};
  let campaignId = '';

  async function vendor(username: string, fields: Record<string, unknown> = {}) {
    const id = await createAccount(t, { username, status: (fields.status as 'active') ?? 'active' });
    await t.ctx.db
      .updateTable('accounts')
      .set({ created_at: ago(200), ...fields })
      .where('id', '=', id)
      .execute();
    ids[username] = id;
    return id;
  }
  async function grant(
    username: string,
    org: string,
    o: { since: number; ends: number; sponsor?: string | null },
  ) {
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: ids[username]!,
        organization_id: ids[org]!,
        granted_by: ids.brm!,
        granted_at: ago(o.since),
        sponsor_id: o.sponsor === undefined ? ids.brm! : o.sponsor,
        expires_at: ago(-o.ends),
        last_confirmed_at: username === 'alice' ? ago(10) : null,
        last_confirmed_by: username === 'alice' ? ids.brm! : null,
      })
      .execute();
  }

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    ids.acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    ids.globex = await addOrganization(t, 'Globex', ['globex.example']);
    ids.admin = await createAccount(t, { username: 'radmin', type: 'employee', isAdmin: true });
    ids.brm = await createAccount(t, { username: 'rbrm', type: 'employee', isEmployeeBrm: true });
    await t.ctx.db
      .updateTable('accounts')
      .set({ given_name: 'Bea', family_name: 'Sponsor' })
      .where('id', '=', ids.brm)
      .execute();
    await assignBrm(t, ids.brm, ids.acme);
    await assignBrm(t, ids.brm, ids.globex);
    // The reports-only auditor: an employee with the auditor flag and no other right.
    ids.auditor = await createAccount(t, { username: 'rauditor', type: 'employee' });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', ids.auditor).execute();
    await createAccount(t, { username: 'rvendor' });

    // Vendor Access: alice (current, Acme, a security key), bob (ended in the period), carl (ended
    // before it), dora (Globex), '=evil' (current, Acme, a formula name, no sponsor).
    await vendor('alice', { last_sign_in_at: ago(2) });
    await grant('alice', 'acme', { since: 120, ends: 30 });
    await t.ctx.db
      .insertInto('webauthn_credentials')
      .values({
        account_id: ids.alice!,
        credential_id: 'cred-alice',
        public_key: 'pk',
        device_type: 'singleDevice',
        backed_up: false,
        aaguid: '00000000-0000-0000-0000-000000000000',
        nickname: 'Key',
        created_at: ago(100),
      })
      .execute();
    await vendor('bob');
    await vendor('carl');
    for (const [who, ended] of [
      ['bob', 20],
      ['carl', 150],
    ] as const)
      await t.ctx.db
        .insertInto('grant_history')
        .values({
          account_id: ids[who]!,
          organization_id: ids.acme,
          granted_at: ago(300),
          granted_by: ids.brm,
          expires_at: ago(ended),
          ended_at: ago(ended),
          end_reason: 'expired',
          ended_by: null,
          sponsor_id: ids.brm,
        })
        .execute();
    await vendor('dora');
    await grant('dora', 'globex', { since: 10, ends: 60 });
    await vendor('evil', { given_name: '=HYPERLINK("http://x")', family_name: '+Sum' });
    await grant('evil', 'acme', { since: 5, ends: 90, sponsor: null });

    // Dormant and Disabled: one disabled for inactivity, one never activated, one warned, one whose
    // warning a later sign-in withdrew.
    await vendor('dozy', {
      status: 'disabled',
      disabled_reason: 'inactive',
      disabled_at: ago(5),
      last_sign_in_at: ago(95),
    });
    await vendor('newbie', { status: 'pendingActivation', created_at: ago(3) });
    await vendor('sleepy', { last_sign_in_at: ago(80) });
    await vendor('woken', { last_sign_in_at: ago(1) });
    await t.ctx.db
      .insertInto('governance_notices')
      .values([
        {
          kind: 'account.inactivity',
          subject_id: `${ids.sleepy}/${ago(80).toISOString()}`,
          milestone: '14',
          sent_at: ago(1),
        },
        {
          kind: 'account.inactivity',
          subject_id: `${ids.woken}/${ago(80).toISOString()}`,
          milestone: '14',
          sent_at: ago(2),
        },
      ])
      .execute();

    // Review Evidence: one closed campaign of Acme with two applied items.
    const cycle = await t.ctx.db
      .insertInto('review_cycles')
      .values({
        name: '2027 Q2 vendor access review',
        default_action: 'remove',
        vendor_confirmation: true,
        opens_at: ago(30),
        due_at: ago(16),
        created_at: ago(30),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    campaignId = (
      await t.ctx.db
        .insertInto('review_campaigns')
        .values({
          cycle_id: cycle.id,
          organization_id: ids.acme,
          status: 'closed',
          opened_at: ago(30),
          closed_at: ago(16),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await t.ctx.db
      .insertInto('review_items')
      .values(
        (['alice', 'bob'] as const).map((who) => ({
          campaign_id: campaignId,
          account_id: ids[who]!,
          organization_id: ids.acme!,
          granted_at: ago(120),
          expires_at: ago(-30),
          status: 'applied' as const,
          decision: who === 'alice' ? ('keep' as const) : null,
          decided_by: who === 'alice' ? ids.brm! : null,
          decided_at: who === 'alice' ? ago(20) : null,
          reason: who === 'alice' ? '=still needed' : null,
          applied_action: who === 'alice' ? ('kept' as const) : ('removed' as const),
          by_default: who !== 'alice',
          applied_at: ago(16),
        })),
      )
      .execute();

    // The Acceptable Use Policy: alice accepted version 1 (the migration's), then version 2 (the
    // newest she accepted is shown); dora accepted version 1 only; the others none.
    const v1 = await t.ctx.db
      .selectFrom('aup_versions')
      .select('id')
      .where('version', '=', 1)
      .executeTakeFirstOrThrow();
    const v2 = await t.ctx.db
      .insertInto('aup_versions')
      .values({
        version: 2,
        title: 'Policy 2',
        body_md: 'Text',
        sha256: '2'.repeat(64),
        effective_on: localDate(ago(60), t.ctx.config.PORTAL_TIME_ZONE),
        published_at: ago(60),
        published_by: ids.admin,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('aup_acceptances')
      .values([
        { account_id: ids.alice!, version_id: v1.id, accepted_at: ago(390), client_address: '192.0.2.1' },
        { account_id: ids.alice!, version_id: v2.id, accepted_at: ago(40), client_address: '192.0.2.1' },
        { account_id: ids.dora!, version_id: v1.id, accepted_at: ago(300), client_address: null },
      ])
      .execute();
    for (const name of ['radmin', 'rbrm', 'rauditor', 'rvendor']) c[name] = await signInAs(t, name);
    c.anonymous = new TestClient(t.app);
    await c.anonymous.fetchCsrf();
  });
  afterAll(async () => t?.close());

  /** The CSV's rows of cells (quoted cells may hold commas and doubled quotes; no newlines here). */
  const csvOf = (body: string) =>
    body
      .split('\r\n')
      .filter((line) => line !== '')
      .map((line) =>
        [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)]
          .filter((m, i, all) => !(m[0] === '' && i === all.length - 1))
          .map((m) => (m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!)),
      );

  describe('Vendor Access', () => {
    it('lists exactly the grants of the organization that overlap the period, with every column', async () => {
      const res = await c.rauditor!.call(reports.getVendorAccess, {
        query: { organization: ids.acme!, size: 100 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<VendorAccessPage>();
      expect(page.items.map((r) => r.username).sort()).toEqual(['alice', 'bob', 'evil']);
      expect([page.total, page.matching, page.from, page.to]).toEqual([3, 3, '2027-03-17', '2027-06-15']);
      expect(page.items.find((r) => r.username === 'alice')).toEqual({
        organization: 'Acme Imaging',
        organizationId: ids.acme,
        vendor: 'Alice Tester',
        username: 'alice',
        email: 'alice@example.test',
        accessSince: ago(120).toISOString(),
        accessEnds: ago(-30).toISOString(),
        sponsor: 'Bea Sponsor',
        approvedBy: 'Bea Sponsor',
        lastConfirmedInReview: ago(10).toISOString(),
        lastSignIn: ago(2).toISOString(),
        signInMethod: 'Security key',
        policyAccepted: 'Version 2 on 2027-05-06',
        status: 'Current',
      });
      expect(page.items.find((r) => r.username === 'bob')).toMatchObject({
        accessEnds: ago(20).toISOString(),
        status: 'Ended: expired',
        signInMethod: 'None',
        lastSignIn: null,
        policyAccepted: null,
      });
      // A longer period reaches carl; every organization includes dora.
      const all = (
        await c.radmin!.call(reports.getVendorAccess, {
          query: { from: '2026-06-01', to: '2027-06-15', size: 100 },
        })
      ).json<VendorAccessPage>();
      expect(all.items.map((r) => r.username).sort()).toEqual(['alice', 'bob', 'carl', 'dora', 'evil']);
      expect(all.items.find((r) => r.username === 'dora')?.policyAccepted).toBe('Version 1 on 2026-08-19');
      // Paged on the server, filtered, sorted.
      const second = (
        await c.radmin!.call(reports.getVendorAccess, {
          query: { from: '2026-06-01', size: 2, page: 2, sort: 'username', direction: 'desc' },
        })
      ).json<VendorAccessPage>();
      expect([second.items.map((r) => r.username), second.matching]).toEqual([['carl', 'bob'], 5]);
      const filtered = (
        await c.radmin!.call(reports.getVendorAccess, { query: { from: '2026-06-01', filter: 'GLOBEX' } })
      ).json<VendorAccessPage>();
      expect([filtered.items.map((r) => r.username), filtered.total, filtered.matching]).toEqual([
        ['dora'],
        5,
        1,
      ]);
    });

    it('streams the CSV with the same rows, formula cells neutralised, and audits the export', async () => {
      const before = (await auditActions(t, 'report.export')).length;
      const res = await c.rauditor!.call(reports.exportVendorAccess, { query: { organization: ids.acme! } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="vendor-access-2027-03-17-2027-06-15.csv"',
      );
      const [header, ...rows] = csvOf(res.body);
      expect(header).toEqual([
        'Organization',
        'Vendor',
        'Username',
        'Email',
        'Access since',
        'Access ends',
        'Sponsor',
        'Approved by',
        'Last confirmed in review',
        'Last sign-in',
        'Sign-in method',
        'Policy accepted',
        'Status',
      ]);
      expect(rows.map((r) => r[2])).toEqual(['alice', 'bob', 'evil']);
      expect(rows[0]).toEqual([
        'Acme Imaging',
        'Alice Tester',
        'alice',
        'alice@example.test',
        '2027-02-15',
        '2027-07-15',
        'Bea Sponsor',
        'Bea Sponsor',
        '2027-06-05',
        ago(2).toISOString(),
        'Security key',
        'Version 2 on 2027-05-06',
        'Current',
      ]);
      expect(rows[1]![11]).toBe('Not recorded');
      // '=HYPERLINK(...) +Sum' becomes text.
      expect(rows[2]![1]).toBe(`'=HYPERLINK("http://x") +Sum`);
      expect(rows[2]![6]).toBe('No sponsor');
      const events = await auditActions(t, 'report.export');
      expect(events).toHaveLength(before + 1);
      expect(events.at(-1)).toMatchObject({
        actor_id: ids.auditor,
        details: {
          report: 'vendor-access',
          filters: JSON.stringify({ organization: ids.acme, from: '2027-03-17', to: '2027-06-15' }),
          rows: 3,
          complete: true,
        },
      });
    });

    it('reads the CSV in batches of any size: every row once, by organization, username and row', async () => {
      const scope = { from: ago(400), until: START, organizationId: undefined, filter: '' };
      const organizations = await vendorAccessOrganizations(t.ctx.db, undefined);
      const walk = async (limit: number) => {
        const seen: VendorAccessCsvRow[] = [];
        for await (const row of inBatches<VendorAccessCsvRow>(
          (after, n) => vendorAccessBatch(t.ctx.db, scope, organizations, after, n),
          limit,
        ))
          seen.push(row);
        return seen.map((r) => `${r.organization}/${r.username}/${r.row_key}`);
      };
      const whole = await walk(1000);
      expect(whole.map((k) => k.split('/').slice(0, 2).join('/'))).toEqual([
        'Acme Imaging/alice',
        'Acme Imaging/bob',
        'Acme Imaging/carl',
        'Acme Imaging/evil',
        'Globex/dora',
      ]);
      // Batches ending inside an organization, at its last row, and across one.
      for (const limit of [1, 2, 3, 4, 5]) expect(await walk(limit), `batches of ${limit}`).toEqual(whole);
      const globexOnly = await vendorAccessBatch(
        t.ctx.db,
        { ...scope, organizationId: ids.globex },
        await vendorAccessOrganizations(t.ctx.db, ids.globex),
        null,
        10,
      );
      expect(globexOnly.map((r) => r.username)).toEqual(['dora']);
    });

    it('an organization renamed while the CSV is read gives its rows once, none skipped', async () => {
      const scope = { from: ago(400), until: START, organizationId: undefined, filter: '' };
      const rename = (id: string, name: string) =>
        t.ctx.db.updateTable('organizations').set({ name }).where('id', '=', id).execute();
      const [acme, globex] = [ids.acme!, ids.globex!];
      const [acmeName, globexName] = await Promise.all(
        [acme, globex].map(
          async (id) =>
            (
              await t.ctx.db
                .selectFrom('organizations')
                .select('name')
                .where('id', '=', id)
                .executeTakeFirstOrThrow()
            ).name,
        ),
      );
      try {
        // Acme is read first; once its rows are given it is renamed to sort after Globex, and
        // Globex, not read yet, to sort before where Acme was.
        const organizations = await vendorAccessOrganizations(t.ctx.db, undefined);
        const seen: string[] = [];
        for await (const row of inBatches<VendorAccessCsvRow>(
          (after, n) => vendorAccessBatch(t.ctx.db, scope, organizations, after, n),
          1,
        )) {
          seen.push(`${row.organization_id}/${row.username}/${row.row_key}`);
          if (row.username === 'evil') {
            await rename(acme, 'Zzz Renamed Acme');
            await rename(globex, 'Aaa Renamed Globex');
          }
        }
        expect(seen.map((key) => key.split('/').slice(0, 2).join('/'))).toEqual([
          `${acme}/alice`,
          `${acme}/bob`,
          `${acme}/carl`,
          `${acme}/evil`,
          `${globex}/dora`,
        ]);
      } finally {
        await rename(acme, acmeName!);
        await rename(globex, globexName!);
      }
    });

    it('answers bad query input with 400 and its message', async () => {
      const bad: [Record<string, unknown>, string][] = [
        [{ from: '2027-13-01' }, 'from: Enter a real date'],
        [{ to: '2027-02-30' }, 'to: Enter a real date'],
        [{ from: '2027-06-10', to: '2027-06-01' }, reportMessages.range],
        [{ from: '2020-01-01', to: '2027-06-01' }, reportMessages.rangeTooLong],
        [{ organization: 'acme' }, `organization: ${reportMessages.organization}`],
        [{ size: 500 }, 'size: size must be a whole number from 1 to 100'],
        [
          { sort: 'password' },
          'sort: sort must be one of: vendor, username, accessSince, accessEnds, lastSignIn',
        ],
      ];
      for (const [query, message] of bad) {
        const res = await c.radmin!.call(reports.getVendorAccess, { query: query });
        expect([res.statusCode, errorsOf(res.body)], JSON.stringify(query)).toEqual([400, [message]]);
      }
      const csv = await c.radmin!.call(reports.exportVendorAccess, {
        query: { from: '2027-06-10', to: '2027-06-01' },
      });
      expect([csv.statusCode, errorsOf(csv.body)]).toEqual([400, [reportMessages.range]]);
      const dormant = await c.radmin!.call(reports.getDormant, { query: { kind: 'sleeping' as never } });
      expect([dormant.statusCode, errorsOf(dormant.body)]).toEqual([
        400,
        [`kind: ${reportMessages.dormantKind}`],
      ]);
    });
  });

  describe('Dormant and Disabled', () => {
    it('lists the warned, the disabled (reason, since, closing day) and the never activated', async () => {
      const policy = (await readPolicyBook(t.ctx.db)).standard;
      const res = await c.rauditor!.call(reports.getDormant, { query: { size: 100, sort: 'username' } });
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json<{ items: DormantRow[] }>().items;
      expect(items.map((r) => [r.username, r.kind])).toEqual([
        ['dozy', 'disabled'],
        ['newbie', 'neverActivated'],
        ['sleepy', 'warned'],
      ]);
      const zone = t.ctx.config.PORTAL_TIME_ZONE;
      expect(items[0]).toMatchObject({
        reason: 'inactive',
        since: ago(5).toISOString(),
        lastSignIn: ago(95).toISOString(),
        closesOn: localDate(new Date(ago(5).getTime() + policy.terminateAfterDisableDays * DAY), zone),
      });
      expect(items[1]).toMatchObject({
        reason: null,
        since: ago(3).toISOString(),
        closesOn: localDate(new Date(ago(3).getTime() + policy.neverActivatedCloseDays * DAY), zone),
      });
      expect(items[2]).toMatchObject({ reason: null, since: ago(1).toISOString(), closesOn: null });
      const warned = await c.rauditor!.call(reports.getDormant, { query: { kind: 'warned' } });
      expect(warned.json<{ items: DormantRow[] }>().items.map((r) => r.username)).toEqual(['sleepy']);
      const csv = await c.rauditor!.call(reports.exportDormant, {});
      expect(csv.statusCode).toBe(200);
      const [header, ...rows] = csvOf(csv.body);
      expect(header![0]).toBe('Vendor');
      expect(rows.map((r) => [r[1], r[3]])).toEqual([
        ['dozy', 'Disabled'],
        ['newbie', 'Never activated'],
        ['sleepy', 'Warned for inactivity'],
      ]);
      expect((await auditActions(t, 'report.export')).at(-1)?.details).toMatchObject({
        report: 'dormant',
        rows: 3,
      });
    });
  });

  describe('Sponsorship, Sign-in Strength, Access Ending', () => {
    it('pages the sponsorship report on the server and exports it', async () => {
      const page = (await c.rauditor!.call(getSponsorship, { query: { size: 1 } })).json();
      expect(page).toMatchObject({ total: 1, matching: 1, page: 1, size: 1 });
      expect(page.items.map((g: { username: string }) => g.username)).toEqual(['evil']);
      const csv = await c.rauditor!.call(reports.exportSponsorship, {});
      const [, ...rows] = csvOf(csv.body);
      expect(rows).toEqual([
        ['Acme Imaging', `'=HYPERLINK("http://x") +Sum`, 'evil', '2027-09-13', 'No sponsor'],
      ]);
    });

    it('gives the share of phishing-resistant vendors per organization, paged, and its CSV', async () => {
      const page = (await c.rauditor!.call(getSignInStrength, { query: { sort: 'name' } })).json();
      expect(page.items).toEqual([
        {
          id: ids.acme,
          name: 'Acme Imaging',
          riskTier: 'standard',
          vendors: 2,
          phishingResistant: 1,
          share: 0.5,
        },
        { id: ids.globex, name: 'Globex', riskTier: 'standard', vendors: 1, phishingResistant: 0, share: 0 },
      ]);
      const csv = csvOf((await c.rauditor!.call(reports.exportSignInStrength, {})).body);
      expect(csv).toEqual([
        ['Organization', 'Risk tier', 'Active vendors', 'Phishing-resistant', 'Share'],
        ['Acme Imaging', 'standard', '2', '1', '50%'],
        ['Globex', 'standard', '1', '0', '0%'],
      ]);
    });

    it('audits the Access Ending export too, with its row count', async () => {
      const res = await c.rauditor!.call(exportAccessEnding, { query: { days: 90 } });
      expect(res.statusCode).toBe(200);
      const rows = csvOf(res.body).length - 1;
      expect(rows).toBe(3);
      expect((await auditActions(t, 'report.export')).at(-1)?.details).toMatchObject({
        report: 'access-ending',
        filters: JSON.stringify({ days: 90 }),
        rows,
      });
    });
  });

  describe('Review Evidence', () => {
    it('lists the campaigns and gives the auditor evidence.csv and a manifest whose hash matches it', async () => {
      const list = (await c.rauditor!.call(reports.getReviewEvidenceCampaigns, {})).json();
      expect(list.items).toEqual([
        {
          id: campaignId,
          cycle: '2027 Q2 vendor access review',
          organization: 'Acme Imaging',
          status: 'closed',
          closedAt: ago(16).toISOString(),
          items: 2,
        },
      ]);
      const csv = await c.rauditor!.call(reviewEvidenceCsv, { params: { id: campaignId } });
      expect(csv.statusCode).toBe(200);
      const rows = csvOf(csv.body);
      expect(rows).toHaveLength(3);
      expect(rows.find((r) => r.includes('alice'))).toContain(`'=still needed`);
      const manifest = JSON.parse(
        (await c.rauditor!.call(reviewEvidenceJson, { params: { id: campaignId } })).body,
      );
      expect(manifest.files).toEqual([
        { name: 'evidence.csv', sha256: createHash('sha256').update(csv.body, 'utf8').digest('hex') },
      ]);
      expect(manifest.counts).toMatchObject({ items: 2, kept: 1, removedByDefault: 1 });
    });
  });

  describe('who may call', () => {
    const reads = () =>
      [
        [reports.getVendorAccess, {}],
        [reports.exportVendorAccess, {}],
        [reports.getDormant, {}],
        [reports.exportDormant, {}],
        [reports.exportSponsorship, {}],
        [reports.exportSignInStrength, {}],
        [reports.getReviewEvidenceCampaigns, {}],
        [reports.getReportOrganizations, {}],
        [getSponsorship, {}],
        [getSignInStrength, {}],
        [exportAccessEnding, {}],
        [getAuditPage, {}],
        [exportAudit, {}],
        [reviewEvidenceCsv, { params: { id: campaignId } }],
        [reviewEvidenceJson, { params: { id: campaignId } }],
      ] as const;

    it('lets admins and the reports-only auditor read every report; refuses vendors and BRMs (audited), anonymous 401', async () => {
      for (const [endpoint, parts] of reads()) {
        for (const who of ['radmin', 'rauditor'])
          expect((await c[who]!.call(endpoint, parts as never)).statusCode, `${who} ${endpoint.path}`).toBe(
            200,
          );
        for (const who of ['rvendor', 'rbrm']) {
          const res = await c[who]!.call(endpoint, parts as never);
          expect([res.statusCode, res.json()], `${who} ${endpoint.path}`).toEqual([
            403,
            { errors: [NOT_ADMIN] },
          ]);
        }
        expect((await c.anonymous!.call(endpoint, parts as never)).statusCode).toBe(401);
      }
      const refused = await auditActions(t, 'access.role-refused');
      expect(refused.filter((e) => e.actor_id === ids.brm).length).toBeGreaterThanOrEqual(reads().length);
    });

    it('refuses the auditor every change, e.g. assigning a sponsor, and changes nothing', async () => {
      const res = await c.rauditor!.call(assignSponsor, {
        body: { sponsorId: ids.brm!, grants: [{ accountId: ids.evil!, organizationId: ids.acme! }] },
      });
      expect([res.statusCode, res.json()]).toEqual([403, { errors: [NOT_ADMIN] }]);
      const g = await t.ctx.db
        .selectFrom('role_grants')
        .select('sponsor_id')
        .where('account_id', '=', ids.evil!)
        .executeTakeFirstOrThrow();
      expect(g.sponsor_id).toBeNull();
    });

    it('two readers exporting at once each get the whole file and one audit event each', async () => {
      const before = (await auditActions(t, 'report.export')).length;
      const [a, b] = await Promise.all([
        c.radmin!.call(reports.exportVendorAccess, { query: { from: '2026-06-01' } }),
        c.rauditor!.call(reports.exportVendorAccess, { query: { from: '2026-06-01' } }),
      ]);
      expect(a.body).toBe(b.body);
      expect(csvOf(a.body)).toHaveLength(6);
      expect((await auditActions(t, 'report.export')).length).toBe(before + 2);
    });
  });
});
