// `admin directory-reconcile` against a real OpenLDAP (slapd started by the test), on both
// engines: a member added by hand in the directory and an account disabled by hand are found by
// the dry run, `--apply` repairs both (audited), and a second dry run finds nothing.
import { roleName } from '@pra/contracts';
import { Attribute, Change, Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount } from '../../../test/support/sign-in';
import { slapdInstalled, sshaHash, startSlapd, type Slapd } from '../../../test/support/slapd';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization } from '../../../test/support/world';
import { commands, type CliContext } from '../../features/administration/cli-commands';
import { lastDirectoryReport } from '../../store/provisioning';
import { applyDueProvisioning } from './provisioning-worker';
import type { DriftReport } from './reconcile';

if (!slapdInstalled) console.warn('SKIPPED reconcile.test.ts: needs slapd (apt-get install -y slapd)');

describe.skipIf(!slapdInstalled).each(testDatabaseKinds)('directory reconciliation on %s', (kind) => {
  let slapd: Slapd;
  let t: TestApp;
  const role = roleName('Acme Imaging');
  const reconcile = async (options: { apply?: boolean }) => {
    let output = '';
    const ctx: CliContext = {
      db: t.ctx.db,
      config: t.ctx.config,
      actor: { id: null, username: 'cli:tester', clientAddress: 'cli' },
      out: (text) => {
        output += text;
      },
      readStdin: async () => '',
    };
    await commands['directory-reconcile']!.run(ctx, [], { ...options, json: true });
    return JSON.parse(output) as DriftReport;
  };
  const asAdmin = async <T>(work: (client: Client) => Promise<T>) => {
    const client = new Client({ url: slapd.url, timeout: 5_000 });
    await client.bind(slapd.adminDn, slapd.adminPassword);
    try {
      return await work(client);
    } finally {
      await client.unbind();
    }
  };
  const groupDn = () => `cn=${role},${slapd.groupsDn}`;
  const intruderDn = () => `uid=intruder,${slapd.peopleDn}`;

  beforeAll(async () => {
    slapd = await startSlapd();
    t = await createTestApp(kind, slapd.env);
    const acme = await addOrganization(t, 'Acme Imaging');
    for (const username of ['vone', 'vtwo']) {
      const id = await createAccount(t, { username });
      await t.ctx.db
        .insertInto('role_grants')
        .values({ account_id: id, organization_id: acme, granted_by: null, request_item_id: null })
        .execute();
    }
    for (;;) {
      const round = await applyDueProvisioning(t.ctx.db, t.ctx.identityStore, t.ctx.clock);
      if (round.applied + round.failed === 0) break;
    }
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.close();
  });

  it('finds nothing while the directory matches the portal', async () => {
    expect((await reconcile({})).items).toEqual([]);
  });

  it('finds a member added by hand and an account disabled by hand; --apply repairs both, audited', async () => {
    await asAdmin(async (client) => {
      await client.add(intruderDn(), {
        objectClass: 'inetOrgPerson',
        uid: 'intruder',
        cn: 'In Truder',
        sn: 'Truder',
        userPassword: sshaHash('Intruder-Pass-1'),
      });
      await client.modify(
        groupDn(),
        new Change({
          operation: 'add',
          modification: new Attribute({ type: 'member', values: [intruderDn()] }),
        }),
      );
      await client.modify(
        `uid=vtwo,${slapd.vendorsDn}`,
        new Change({
          operation: 'replace',
          modification: new Attribute({ type: 'pwdAccountLockedTime', values: ['000001010000Z'] }),
        }),
      );
    });
    const found = await reconcile({});
    expect(found.applied).toBe(false);
    expect(found.items).toEqual(
      expect.arrayContaining([
        { kind: 'unexpectedMember', username: null, group: role, memberDn: intruderDn().toLowerCase() },
        { kind: 'enabledMismatch', username: 'vtwo', portal: 'active', directory: 'disabled' },
      ]),
    );
    expect(found.drift).toBe(2);
    expect((await lastDirectoryReport(t.ctx.db))?.drift).toBe(2);

    const applied = await reconcile({ apply: true });
    expect(applied).toMatchObject({ applied: true, drift: 2 });
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'directory.reconcile')
      .execute();
    expect(audit.some((e) => (e.details as { applied?: boolean }).applied === true)).toBe(true);

    expect((await reconcile({})).items).toEqual([]);
    const members = await asAdmin(async (client) => {
      const { searchEntries } = await client.search(groupDn(), { scope: 'base', attributes: ['member'] });
      return [searchEntries[0]?.member ?? []].flat().map(String).filter(Boolean);
    });
    expect(members.map((m) => m.toLowerCase()).sort()).toEqual(
      [`uid=vone,${slapd.vendorsDn}`, `uid=vtwo,${slapd.vendorsDn}`].map((m) => m.toLowerCase()).sort(),
    );
  });
});
