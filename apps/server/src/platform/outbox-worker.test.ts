import { createServer } from 'node:net';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createAccount, signInAs } from '../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../test/support/test-app';
import { addOrganization, assignBrm, outbox } from '../../test/support/world';
import { smtpOptions } from './mailer';
import { backoffSeconds, deliverDueMail, MAX_ATTEMPTS } from './outbox-worker';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A real SMTP server counting what each recipient receives. */
async function startSmtp(port: number) {
  const received = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        for (const r of session.envelope.rcptTo) received.set(r.address, (received.get(r.address) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('backoffSeconds', () => {
  it('doubles from 30 s and stops at an hour', () => {
    expect([1, 2, 3, 4, 8, 20].map(backoffSeconds)).toEqual([30, 60, 120, 240, 3600, 3600]);
  });
});

describe.each(testDatabaseKinds)('outbox delivery on %s', (kind) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp(kind, { SMTP_URL: `smtp://127.0.0.1:${port}` });
    const acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    const brm = await createAccount(t, { username: 'brma', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brm, acme);
  });
  afterAll(async () => t?.close());

  it('keeps mail while SMTP is down and delivers each exactly once when it is back', async () => {
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    const brm = await signInAs(t, 'brma');
    const registration = (email: string) => ({
      firstName: 'Jane',
      lastName: 'Doe',
      email,
      org: 'Acme Imaging',
    });
    expect((await anonymous.post('/api/user/new/submit', registration('self@acme.example'))).statusCode).toBe(
      200,
    );
    expect((await brm.post('/api/user/new/submit', registration('onbehalf@acme.example'))).statusCode).toBe(
      200,
    );
    const pending = await brm.get('/api/brm/pending-approvals');
    const requestId = pending.json().pendingApprovals[0].requestId as string;
    expect(
      (await brm.post('/api/brm/pending-approvals/approve-or-deny', { decision: 'APPROVE', requestId }))
        .statusCode,
    ).toBe(200);

    const transport = nodemailer.createTransport(smtpOptions(t.ctx.config.SMTP_URL!));
    const delivery = { transport, from: t.ctx.config.MAIL_FROM, isStandalone: false };
    const down = await deliverDueMail(t.ctx.db, delivery);
    expect(down.sent).toBe(0);
    expect(down.failed).toBe(4);
    const rows = await outbox(t);
    expect(rows.every((r) => r.status === 'pending' && r.attempts === 1 && r.last_error)).toBe(true);
    // Not due again before the backoff has passed.
    expect(await deliverDueMail(t.ctx.db, delivery)).toEqual({ sent: 0, failed: 0 });

    const smtp = await startSmtp(port);
    try {
      await t.ctx.db
        .updateTable('outbox')
        .set({ next_attempt_at: sql<Date>`now()` })
        .execute();
      // Two workers at once (two instances): each mail still leaves once.
      const rounds = await Promise.all([
        deliverDueMail(t.ctx.db, delivery),
        deliverDueMail(t.ctx.db, delivery),
      ]);
      expect(rounds[0]!.sent + rounds[1]!.sent).toBe(4);
      expect(await deliverDueMail(t.ctx.db, delivery)).toEqual({ sent: 0, failed: 0 });
      expect(Object.fromEntries(smtp.received)).toEqual({
        'self@acme.example': 2,
        'brma@example.test': 1,
        'onbehalf@acme.example': 1,
      });
      const sent = await outbox(t);
      expect(sent.every((r) => r.status === 'sent' && r.sent_at)).toBe(true);
      // Production keeps no delivered bodies: they may carry codes.
      expect(sent.every((r) => r.text_body === '' && r.html_body === '')).toBe(true);
    } finally {
      transport.close();
      await smtp.close();
    }
  });

  it('gives up on a mail after the last attempt', async () => {
    await t.ctx.db
      .insertInto('outbox')
      .values({
        recipient: 'x@acme.example',
        subject: 's',
        text_body: 't',
        html_body: 'h',
        template: 'test',
        attempts: MAX_ATTEMPTS - 1,
      })
      .execute();
    const transport = nodemailer.createTransport(smtpOptions(`smtp://127.0.0.1:${await freePort()}`));
    const result = await deliverDueMail(t.ctx.db, { transport, from: 'a@b.example', isStandalone: false });
    expect(result.failed).toBe(1);
    expect((await outbox(t, 'x@acme.example'))[0]).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
    });
  });

  it('marks mail sent without SMTP in standalone mode (the dev mailbox shows it)', async () => {
    await t.ctx.db
      .insertInto('outbox')
      .values({
        recipient: 'dev@acme.example',
        subject: 's',
        text_body: 't',
        html_body: 'h',
        template: 'test',
      })
      .execute();
    expect(
      await deliverDueMail(t.ctx.db, { transport: null, from: 'a@b.example', isStandalone: false }),
    ).toEqual({ sent: 0, failed: 0 });
    expect(
      (await deliverDueMail(t.ctx.db, { transport: null, from: 'a@b.example', isStandalone: true })).sent,
    ).toBe(1);
    expect((await outbox(t, 'dev@acme.example'))[0]).toMatchObject({ status: 'sent', text_body: 't' });
  });
});
