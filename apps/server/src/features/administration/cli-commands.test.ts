import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textFieldMessages, usernameMessages } from '@pra/contracts';
import { createTestDatabase, testDatabaseKinds } from '../../../test/support/databases';
import { loadConfig, type Config } from '../../config';
import { AppError } from '../../platform/app-error';
import { readSystemMessage } from '../../identity/system-message';
import { isInMaintenance } from '../../identity/maintenance';
import type { DatabaseHandle } from '../../platform/db';
import { commands, UsageError, type CliContext } from './cli-commands';
import { readAdminSystemMessage } from './settings';

describe.each(testDatabaseKinds)('operators’ CLI commands on %s', (kind) => {
  let handle: DatabaseHandle;
  let config: Config;
  let stdin = '';

  /** Runs a command as the CLI would, returning its output. */
  async function run(name: string, args: string[] = [], options: Record<string, unknown> = {}, env = config) {
    let output = '';
    const ctx: CliContext = {
      db: handle.db,
      config: env,
      actor: { id: null, username: 'cli:tester', clientAddress: 'cli' },
      out: (text) => {
        output += text;
      },
      readStdin: async () => stdin,
    };
    await commands[name]!.run(ctx, args, options as never);
    return output;
  }

  const audit = (action: string) =>
    handle.db.selectFrom('audit_events').selectAll().where('action', '=', action).execute();

  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    config = loadConfig({ LOG_LEVEL: 'silent' });
  });
  afterAll(async () => handle?.close());

  it('create-admin makes an active employee admin, audited as the CLI', async () => {
    const out = await run('create-admin', ['ops.admin'], {
      email: 'ops.admin@hospital.example',
      'given-name': 'Opal',
      'family-name': 'Admin',
    });
    expect(out).toContain('Created admin ops.admin');
    const account = await handle.db
      .selectFrom('accounts')
      .selectAll()
      .where('username', '=', 'ops.admin')
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({
      type: 'employee',
      is_admin: true,
      status: 'active',
      password_hash: null,
    });
    const [event] = await audit('person.create');
    expect(event).toMatchObject({ actor_username: 'cli:tester', target_username: 'ops.admin' });
  });

  it('create-admin without the details of a new person is a usage error', async () => {
    await expect(run('create-admin', ['nobody'], {})).rejects.toBeInstanceOf(UsageError);
  });

  it('org-add adds an organization with domains; a duplicate or a bad domain is refused', async () => {
    await run('org-add', ['Vendor One'], { domain: ['Vendor-One.example'] });
    const out = await run('org-list', []);
    expect(out).toContain('Vendor One\tdomains: vendor-one.example');
    await expect(run('org-add', ['vendor one'], {})).rejects.toThrow(
      'An organization named "vendor one" already exists.',
    );
    await expect(run('org-add', ['Other'], { domain: ['https://x.example'] })).rejects.toThrow('no scheme');
    await expect(run('org-add', ['Other'], { domain: ['a@x.example'] })).rejects.toThrow('no @');
    await run('org-add', ['Vendor One Services'], { domain: ['vendor-one.example'] });
    expect(await run('org-list', [])).toContain('Vendor One Services\tdomains: vendor-one.example');
    expect(await audit('organization.create')).toHaveLength(2);
  });

  it("applies the API's rules to names, domains and usernames: control, bidi, formula and shell text is refused, nothing stored", async () => {
    const orgsBefore = await handle.db.selectFrom('organizations').select('name').execute();
    await expect(run('org-add', ['Evil\u202eOrg\nSecond'], {})).rejects.toThrow(
      `name: ${textFieldMessages.invalidCharacters}`,
    );
    await expect(run('org-add', ['=HYPERLINK("https://evil.example","x")'], {})).rejects.toThrow(
      `name: ${textFieldMessages.formula}`,
    );
    await expect(run('org-change', ['Vendor One'], { rename: 'Vendor\u2066One' })).rejects.toThrow(
      `name: ${textFieldMessages.invalidCharacters}`,
    );
    expect(await handle.db.selectFrom('organizations').select('name').execute()).toEqual(orgsBefore);
    const person = { email: 'p@hospital.example', 'given-name': 'Pat', 'family-name': 'Shell' };
    await expect(run('add-person', ['x;touch pwn'], person)).rejects.toThrow(
      `username: ${usernameMessages.invalid}`,
    );
    await expect(run('add-person', ['pat.shell'], { ...person, 'given-name': '@SUM(1)' })).rejects.toThrow(
      `givenName: ${textFieldMessages.formula}`,
    );
    await expect(
      run('add-person', ['pat.shell'], { ...person, 'family-name': 'Shell\u200b' }),
    ).rejects.toThrow(`familyName: ${textFieldMessages.invalidCharacters}`);
    const stored = await handle.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'p@hospital.example')
      .execute();
    expect(stored).toEqual([]);
  });

  it('import refuses rows whose names or usernames the API would refuse, writing nothing', async () => {
    stdin = [
      'organization,domains,brm_username,brm_email,brm_given_name,brm_family_name',
      '"=HYPERLINK(""https://evil.example"",""x"")",evil.example,,,,',
      'Fine Org,fine.example,x;touch pwn,pwn@hospital.example,P,W',
      'Other Org,other.example,ok.brm,ok@hospital.example,"Ok\u202e",Brm',
    ].join('\n');
    await expect(run('import', ['-'], { apply: true })).rejects.toThrow('3 row(s) with errors');
    expect(
      await handle.db.selectFrom('organizations').select('name').where('name', 'like', '%Org%').execute(),
    ).toEqual([]);
  });

  it('org-change renames, deactivates and changes domains', async () => {
    await run('org-change', ['Vendor One'], {
      rename: 'Vendor Uno',
      deactivate: true,
      'add-domain': ['uno.example'],
      'remove-domain': ['vendor-one.example'],
    });
    expect(await run('org-list', [], { filter: 'uno' })).toBe(
      'Vendor Uno (inactive)\tdomains: uno.example\tBRMs: -\n',
    );
    const [rename] = await audit('organization.rename');
    expect(rename?.details).toMatchObject({
      from: 'Vendor One',
      roleName: 'PRA - Vendor Access - Vendor Uno - BR',
    });
    expect(await audit('organization.deactivate')).toHaveLength(1);
    await run('org-change', ['Vendor Uno'], { reactivate: true });
    expect(await audit('organization.reactivate')).toHaveLength(1);
  });

  it('org-change sets the risk tier and the contract end (none removes it), refusing bad ones', async () => {
    await run('org-change', ['Vendor Uno'], { 'risk-tier': 'high', 'contract-ends-on': '2099-12-31' });
    const row = () =>
      handle.db
        .selectFrom('organizations')
        .select(['risk_tier', 'contract_ends_on'])
        .where('name', '=', 'Vendor Uno')
        .executeTakeFirstOrThrow();
    expect(await row()).toEqual({ risk_tier: 'high', contract_ends_on: '2099-12-31' });
    expect((await audit('org.tier-change'))[0]?.details).toMatchObject({ from: 'standard', to: 'high' });
    await expect(run('org-change', ['Vendor Uno'], { 'risk-tier': 'critical' })).rejects.toThrow('riskTier');
    await expect(run('org-change', ['Vendor Uno'], { 'contract-ends-on': '2000-01-01' })).rejects.toThrow(
      'contractEndsOn: The contract end date cannot be in the past.',
    );
    await run('org-change', ['Vendor Uno'], { 'risk-tier': 'standard', 'contract-ends-on': 'none' });
    expect(await row()).toEqual({ risk_tier: 'standard', contract_ends_on: null });
  });

  it('brm-assign and brm-remove; the last BRM of an organization stays until replaced', async () => {
    await run('add-person', ['brm.one'], {
      email: 'b1@hospital.example',
      'given-name': 'B',
      'family-name': 'One',
    });
    await expect(run('brm-assign', ['nosuch', 'Vendor Uno'])).rejects.toThrow(
      'No hospital employee with the username "nosuch".',
    );
    await run('brm-assign', ['brm.one', 'Vendor Uno']);
    expect(await run('org-list', [], { filter: 'Uno' })).toContain('BRMs: brm.one');
    await expect(run('brm-remove', ['brm.one', 'Vendor Uno'])).rejects.toThrow(
      'Assign another BRM first: this would leave Vendor Uno without a BRM',
    );
    await run('add-person', ['brm.two'], {
      email: 'b2@hospital.example',
      'given-name': 'B',
      'family-name': 'Two',
      brm: true,
    });
    await run('brm-assign', ['brm.two', 'Vendor Uno']);
    await run('brm-remove', ['brm.one', 'Vendor Uno']);
    expect(await run('org-list', [], { filter: 'Uno' })).toContain('BRMs: brm.two\n');
    expect((await audit('brm.remove'))[0]).toMatchObject({
      target_username: 'brm.one',
      actor_username: 'cli:tester',
    });
  });

  it('import: a dry run reports each row and writes nothing; --apply writes; a bad row stops all', async () => {
    stdin = [
      'organization,domains,brm_username,brm_email,brm_given_name,brm_family_name',
      'Imported A,a.example;a2.example,new.brm,new.brm@hospital.example,New,Brm',
      'Imported B,b.example,brm.two,,,',
      '"Imported A",,brm.two,,,',
    ].join('\n');
    const dry = await run('import', ['-'], {});
    expect(dry.split('\n').filter(Boolean)).toEqual([
      'row 2: create organization "Imported A" with a.example, a2.example; create employee new.brm; new.brm is BRM of "Imported A"',
      'row 3: create organization "Imported B" with b.example; brm.two is BRM of "Imported B"',
      'row 4: organization "Imported A" unchanged; brm.two is BRM of "Imported A"',
      'Dry run: nothing was written. Run again with --apply to write it.',
    ]);
    expect(await run('org-list', [], { filter: 'Imported' })).toBe('');
    expect(await run('import', ['-'], { apply: true })).toContain('Applied.');
    expect(await run('org-list', [], { filter: 'Imported' })).toBe(
      'Imported A\tdomains: a.example a2.example\tBRMs: brm.two new.brm\nImported B\tdomains: b.example\tBRMs: brm.two\n',
    );
    stdin =
      'organization,domains,brm_username\nImported C,c.example,\nImported D,http://d.example,\nImported E,,ghost\n';
    const failed = run('import', ['-'], { apply: true });
    await expect(failed).rejects.toThrow('2 row(s) with errors: nothing was written.');
    expect(await run('org-list', [], { filter: 'Imported C' })).toBe('');
  });

  it('import refuses a file without the header row', async () => {
    stdin = 'Acme,acme.example\n';
    await expect(run('import', ['-'], {})).rejects.toBeInstanceOf(AppError);
  });

  it('message-set and message-clear change the public system message, with a time window', async () => {
    await run('message-set', [], { text: 'Downtime tonight', severity: 'warning' });
    expect(await readSystemMessage(handle.db, false)).toMatchObject({
      enabled: true,
      text: 'Downtime tonight',
      severity: 'warning',
    });
    await run('message-set', [], { text: 'Later', starts: '2999-01-01' });
    expect((await readSystemMessage(handle.db, false)).enabled).toBe(false);
    await expect(run('message-set', [], { text: 'x', severity: 'loud' })).rejects.toBeInstanceOf(UsageError);
    await expect(run('message-set', [], { text: 'x', ends: 'someday' })).rejects.toBeInstanceOf(UsageError);
    // As the API: an end before (or at) the start is refused, and the message stays as it was.
    await expect(
      run('message-set', [], { text: 'Backwards', starts: '2030-01-02', ends: '2030-01-01' }),
    ).rejects.toThrow('The end time must be after the start time.');
    expect((await readAdminSystemMessage(handle.db)).text).toBe('Later');
    await run('message-clear');
    expect((await readSystemMessage(handle.db, true)).enabled).toBe(false);
    expect(await audit('system-message.set')).toHaveLength(2);
    expect(await audit('system-message.clear')).toHaveLength(1);
  });

  it('maintenance on/off switches the flag iiqAvailable reads; IIQ_MAINTENANCE forces it on', async () => {
    expect(await run('maintenance', ['on'])).toBe('Account management: maintenance.\n');
    expect(await isInMaintenance({ config, db: handle.db })).toBe(true);
    expect(await run('maintenance', ['off'])).toBe('Account management: available.\n');
    const forced = loadConfig({ LOG_LEVEL: 'silent', IIQ_MAINTENANCE: 'true' });
    expect(await run('maintenance', ['status'], {}, forced)).toBe(
      'Account management: maintenance (forced by IIQ_MAINTENANCE).\n',
    );
    await expect(run('maintenance', ['maybe'])).rejects.toBeInstanceOf(UsageError);
    expect(await audit('maintenance.on')).toHaveLength(1);
  });

  it('audit-export writes the range as CSV or JSON lines', async () => {
    const csv = await run('audit-export', [], { from: '2000-01-01', to: '2999-01-01' });
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('occurredAt,action,outcome,actor,target,organization,clientAddress,details');
    expect(lines.some((l) => l.includes('organization.create,success,cli:tester'))).toBe(true);
    const jsonl = await run('audit-export', [], { format: 'jsonl', to: '2000-01-01' });
    expect(jsonl).toBe('');
    const all = (await run('audit-export', [], { format: 'jsonl' })).trim().split('\n');
    expect(all.length).toBe(lines.length - 1);
    expect(JSON.parse(all[0]!)).toHaveProperty('action');
    await expect(run('audit-export', [], { format: 'xml' })).rejects.toBeInstanceOf(UsageError);
  });

  it('audit-purge keeps everything without a retention, and purges only what is older with one', async () => {
    expect(await run('audit-purge', [], { apply: true })).toContain('kept forever');
    const before = await handle.db.selectFrom('audit_events').select('id').execute();
    const keep = loadConfig({ LOG_LEVEL: 'silent', AUDIT_RETENTION_DAYS: '30' });
    // Nothing is older than 30 days yet.
    expect(await run('audit-purge', [], {}, keep)).toMatch(/^0 audit event\(s\) are older than/);
    await handle.db
      .insertInto('audit_events')
      .values({ action: 'old.event', outcome: 'success', occurred_at: '2001-01-01T00:00:00Z', details: '{}' })
      .execute();
    expect(await run('audit-purge', [], {}, keep)).toMatch(/^1 audit event\(s\)/);
    expect(await run('audit-purge', [], { apply: true }, keep)).toMatch(/^Purged 1 audit event\(s\)/);
    const after = await handle.db.selectFrom('audit_events').select(['id', 'action']).execute();
    expect(after.map((e) => e.action)).not.toContain('old.event');
    expect(after).toHaveLength(before.length + 1); // the purge's own event
    expect(await audit('audit.purge')).toHaveLength(1);
  });

  it('set-password gives an employee a built-in IdP password, checked against the policy', async () => {
    stdin = 'short\n';
    await expect(run('set-password', ['brm.two'])).rejects.toBeInstanceOf(AppError);
    stdin = 'Sturdy-Lantern-47-Orbit\n';
    expect(await run('set-password', ['brm.two'])).toBe('Password set for brm.two.\n');
    const row = await handle.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('username', '=', 'brm.two')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const external = loadConfig({ LOG_LEVEL: 'silent', IDP: 'external', IDP_METADATA: '/x.xml' });
    await expect(run('set-password', ['brm.two'], {}, external)).rejects.toThrow('IDP is external');
  });

  it('token-create prints a service token once, token-list never shows it, token-revoke stops it; all audited as the CLI', async () => {
    await run('create-admin', ['token.owner'], {
      email: 'token.owner@hospital.example',
      'given-name': 'Tove',
      'family-name': 'Owner',
    });
    const out = await run('token-create', ['nightly export'], {
      admin: 'token.owner',
      scope: ['audit:read', 'people:read'],
      days: '30',
    });
    const token = /^pra_[A-Za-z0-9_-]{43}$/m.exec(out)?.[0];
    expect(token).toBeDefined();
    expect(out).toContain('shown only this once');
    const row = await handle.db
      .selectFrom('service_tokens')
      .selectAll()
      .where('name', '=', 'nightly export')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ created_by: 'cli:tester', scopes: ['audit:read', 'people:read'] });
    const list = await run('token-list');
    expect(list).toContain(`${row.id}\tnightly export\tactive\tas token.owner\tby cli:tester`);
    expect(list).not.toContain(token!);
    expect(await run('token-revoke', [row.id])).toContain('revoked');
    expect(await run('token-list')).toContain(`${row.id}\tnightly export\trevoked`);
    await expect(run('token-revoke', [row.id])).rejects.toThrow('already revoked');
    const events = [...(await audit('service-token.create')), ...(await audit('service-token.revoke'))];
    expect(events.map((e) => [e.action, e.actor_username, e.target_username, e.details.tokenId])).toEqual([
      ['service-token.create', 'cli:tester', 'token.owner', row.id],
      ['service-token.revoke', 'cli:tester', 'token.owner', row.id],
    ]);
    expect(JSON.stringify(events)).not.toContain(token!.slice(4));
  });

  it('token-create refuses what the API refuses: no admin, a non-admin, an unknown scope, a far expiry', async () => {
    await expect(run('token-create', ['x'], { scope: ['audit:read'] })).rejects.toBeInstanceOf(UsageError);
    await run('add-person', ['plain.employee'], {
      email: 'plain.employee@hospital.example',
      'given-name': 'Pia',
      'family-name': 'Plain',
    });
    await expect(
      run('token-create', ['x'], { admin: 'plain.employee', scope: ['audit:read'] }),
    ).rejects.toThrow('"plain.employee" is not one');
    await expect(run('token-create', ['x'], { admin: 'token.owner', scope: ['audit:all'] })).rejects.toThrow(
      'Unknown scope "audit:all"',
    );
    await expect(
      run('token-create', ['x'], { admin: 'token.owner', scope: ['audit:read'], days: '400' }),
    ).rejects.toBeInstanceOf(AppError);
    await expect(run('token-revoke', ['not-an-id'])).rejects.toBeInstanceOf(UsageError);
  });
});
