// Usernames a request names (beneficiaryUsername, targetUsername, username) follow the username
// rule: anything else is a 400 naming the field, before any lookup or audit. Audit events store and
// log usernames with control, bidi and zero-width characters escaped, whatever their source.
import { api, isPlainText, usernameMessages } from '@pra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../src/identity/audit';
import { testDatabaseKinds } from './support/databases';
import { createAccount, signInAs } from './support/sign-in';
import { TestClient, createTestApp, type TestApp } from './support/test-app';
import { addOrganization, assignBrm } from './support/world';

const BIDI = 'other\u202egpj.exe';

describe.each(testDatabaseKinds)('usernames in requests on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const organizationId = await addOrganization(t, 'Rule Org', ['rule.example']);
    await createAccount(t, { username: 'rulevendor' });
    const brm = await createAccount(t, { username: 'rulebrm', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brm, organizationId);
  });
  afterAll(async () => t?.close());

  const refusal = (field: string) => ({ errors: [`${field}: ${usernameMessages.invalid}`] });
  const rawAudits = async () =>
    (
      await t.ctx.db.selectFrom('audit_events').select(['target_username', 'actor_username']).execute()
    ).filter((row) => !isPlainText(row.target_username + row.actor_username));

  it('refuses a beneficiaryUsername with a bidi override: 400, nothing audited raw', async () => {
    const vendor = await signInAs(t, 'rulevendor');
    const res = await vendor.post(api.requestAccess, {
      selectedNames: ['PRA - Vendor Access - Rule Org - BR'],
      justification: 'needed',
      beneficiaryUsername: BIDI,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('beneficiaryUsername'));
    expect(await rawAudits()).toEqual([]);
  });

  it('refuses a targetUsername with a line break and a recovery username with a zero-width space', async () => {
    const brm = await signInAs(t, 'rulebrm');
    const res = await brm.post(api.enableOrDisableUser, { enable: false, targetUsername: 'rule\nvendor' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('targetUsername'));
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    const identify = await anonymous.post(api.forgotIdentify, {
      username: 'rule\u200bvendor',
      email: 'rulevendor@example.test',
    });
    expect(identify.statusCode).toBe(400);
    expect(identify.json()).toEqual(refusal('username'));
    expect(await rawAudits()).toEqual([]);
  });

  it('stores audit usernames with control and bidi characters escaped', async () => {
    await recordAudit(t.ctx.db, {
      action: 'test.escape',
      outcome: 'denied',
      actor: { id: null, username: 'a\u202eb' },
      target: { id: null, username: 'evil\u2066x\ny' },
    });
    const row = await t.ctx.db
      .selectFrom('audit_events')
      .select(['actor_username', 'target_username'])
      .where('action', '=', 'test.escape')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ actor_username: 'a\\u{202e}b', target_username: 'evil\\u{2066}x\\u{000a}y' });
  });
});
