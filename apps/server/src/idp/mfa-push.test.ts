import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createIdpAccount, csrfOf, passPasswordStep, secretOf, totpCode } from '../../test/support/idp-kit';
import { createTestApp, type TestClient, type TestApp } from '../../test/support/test-app';
import { auditActions, outbox } from '../../test/support/world';
import { answerPush, pendingPushes } from '../store/factors';
import { pushMessages } from './mfa-step';

describe.each(testDatabaseKinds)('built-in IdP push and pairing on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { PUSH_TIMEOUT_SECONDS: '3', SIGNIN_ADDRESS_MAX_FAILURES: '1000' });
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    const midStep = Math.floor(Date.now() / 30_000) * 30_000 + 15_000;
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(midStep);
  });
  afterEach(() => vi.useRealTimers());

  /** Enrols a new account's authenticator, pairing the phone too when asked. */
  async function enrol(pairPhone: boolean) {
    const account = await createIdpAccount(t);
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    const fields: Record<string, string> = {
      csrfToken: csrfOf(mfaPage),
      passcode: await totpCode(secretOf(mfaPage), -1),
      nickname: 'Work phone',
    };
    if (pairPhone) fields.pairPhone = 'on';
    const res = await client.postForm('/idp/mfa', fields);
    expect(res.statusCode).toBe(200);
    return { account, page: res.body };
  }

  async function pushFrom(client: TestClient, page: string, answer: boolean | null, accountId: string) {
    const answering = (async () => {
      if (answer === null) return;
      for (let i = 0; i < 60; i += 1) {
        const [pending] = await pendingPushes(t.ctx.db, accountId);
        if (pending) {
          const device = await t.ctx.db
            .selectFrom('authenticators')
            .select(['id', 'account_id'])
            .where('account_id', '=', accountId)
            .where('revoked_at', 'is', null)
            .executeTakeFirstOrThrow();
          return answerPush(t.ctx.db, device, pending.id, answer);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const res = await client.postForm('/idp/mfa/push', { csrfToken: csrfOf(page) });
    await answering;
    return res;
  }

  it('offers pairing at enrolment: the QR code and link come before Continue', async () => {
    const { account, page } = await enrol(true);
    expect(page).toContain('Pair your phone');
    expect(page).toMatch(/alt="QR code that pairs your phone/);
    expect(page).toMatch(/href="http:\/\/localhost:\d+\/authenticator#key=[\w-]{40,}"/);
    expect(page).toContain('name="SAMLResponse"');
    expect(page).not.toContain('auto-post.js');
    const paired = await t.ctx.db
      .selectFrom('authenticators')
      .select('id')
      .where('account_id', '=', account.id)
      .execute();
    expect(paired).toHaveLength(1);
  });

  it('mails the owner at once for the authenticator app and the phone added at enrolment, audited', async () => {
    const { account } = await enrol(true);
    const mails = await outbox(t, `${account.username}@example.test`);
    // One transaction each, committed within the same instant: compare without their order.
    expect(mails.map((m) => m.template)).toEqual(['factor-added', 'factor-added']);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      expect.stringContaining('new authenticator app added to your account'),
      expect.stringContaining('new phone added to your account'),
    ]);
    for (const mail of mails) expect(mail.text_body).toContain('If this wasn’t you');
    const audited = [...(await auditActions(t, 'mfa.enrol')), ...(await auditActions(t, 'mfa.pair'))];
    expect(audited.filter((e) => e.target_id === account.id).map((e) => e.action)).toEqual([
      'mfa.enrol',
      'mfa.pair',
    ]);
  });

  it('offers Send Push only with a paired phone; approved signs in, denied refuses', async () => {
    const unpaired = await enrol(false);
    expect((await passPasswordStep(t, unpaired.account.username)).mfaPage).not.toContain('Send Push');

    const { account } = await enrol(true);
    const first = await passPasswordStep(t, account.username);
    expect(first.mfaPage).toContain('Send Push');
    const denied = await pushFrom(first.client, first.mfaPage, false, account.id);
    expect(denied.statusCode).toBe(401);
    expect(denied.body).toContain(pushMessages.denied);

    const timedOut = await pushFrom(first.client, denied.body, null, account.id);
    expect(timedOut.body).toContain(pushMessages.timeout);
    expect(await pendingPushes(t.ctx.db, account.id)).toEqual([]);

    const approved = await pushFrom(first.client, timedOut.body, true, account.id);
    expect(approved.statusCode).toBe(200);
    expect(approved.body).toContain('name="SAMLResponse"');
  });
});
