import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdpAccount, csrfOf, startSignIn } from '../../test/support/idp-kit';
import { createAccount, signInAs } from '../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { auditActions } from '../../test/support/world';
import { recordAudit } from './audit';

describe('audit events as JSON log lines for the SIEM', () => {
  let t: TestApp;
  const output: string[] = [];
  const lines = () =>
    output
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const auditLines = (action: string) => lines().filter((l) => l.event === 'audit' && l.action === action);

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    t = await createTestApp('pglite', { LOG_LEVEL: 'info' }, { logStream: stream });
  });
  afterAll(async () => t?.close());

  it('logs a failed built-in IdP sign-in with its request id and address, never the password', async () => {
    const account = await createIdpAccount(t);
    const { client, loginPage } = await startSignIn(t, undefined, '192.0.2.77');
    await client.postForm('/idp/login', {
      csrfToken: csrfOf(loginPage),
      username: account.username,
      password: 'Wrong-Secret-Guess-42',
    });
    const [line] = auditLines('signin.password');
    expect(line).toMatchObject({
      event: 'audit',
      outcome: 'failure',
      target: account.username,
      targetId: account.id,
      actor: null,
      organization: null,
      clientAddress: '192.0.2.77',
      details: { reason: 'wrongPassword' },
    });
    // The same request id as the request's own log line (whatever the request logging says).
    const request = lines().find((l) => l.reqId === line?.reqId && l.event !== 'audit');
    expect(line?.requestId).toBe(line?.reqId);
    expect(request).toBeDefined();
    expect(output.join('')).not.toContain('Wrong-Secret-Guess-42');
  });

  it('logs a completed SP sign-in with the actor, and no SAML document or session id', async () => {
    await createAccount(t, { username: 'sielogged' });
    const client = await signInAs(t, 'sielogged');
    const [line] = auditLines('signin').filter((l) => l.outcome === 'success');
    expect(line).toMatchObject({ actor: 'sielogged', target: 'sielogged' });
    const all = output.join('');
    expect(all).not.toContain('PHNhbWxwOlJlc3BvbnNl'); // base64 of "<samlp:Response"
    expect(all).not.toContain(client.cookie.split('=')[1]);
  });

  it('logs an event only once its transaction commits, and never a rolled-back one', async () => {
    const event = { action: 'test.committed', outcome: 'success' as const };
    await t.ctx.db.transaction().execute(async (tx) => {
      await recordAudit(tx, event);
      expect(auditLines('test.committed')).toHaveLength(0); // written, not yet committed
    });
    expect(auditLines('test.committed')).toHaveLength(1);

    await expect(
      t.ctx.db.transaction().execute(async (tx) => {
        await recordAudit(tx, { action: 'test.rolledback', outcome: 'success' });
        throw new Error('the change fails after its audit row');
      }),
    ).rejects.toThrow('the change fails');
    expect(auditLines('test.rolledback')).toHaveLength(0);
    expect(await auditActions(t, 'test.rolledback')).toHaveLength(0);
  });

  it('logs a statement outside a transaction at once', async () => {
    await recordAudit(t.ctx.db, { action: 'test.autocommit', outcome: 'failure' });
    expect(auditLines('test.autocommit')).toHaveLength(1);
  });
});
