import { createServer, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createAccount, signInAs } from '../../test/support/sign-in';
import { freePort, startRelay } from '../../test/support/smtp';
import { createTestApp, TestClient, type TestApp } from '../../test/support/test-app';
import { addOrganization, assignBrm, outbox } from '../../test/support/world';
import { runAfterCommits } from '../platform/after-commit';
import { classifySmtpFailure, createMailer, smtpOptions, SMTP_CONNECTIONS } from '../platform/mailer';
import { backoffSeconds, deliverDueMail, startOutboxWorker, type OutboxDelivery } from './outbox-worker';

describe('backoffSeconds', () => {
  it('doubles from 30 s and stops at an hour', () => {
    expect([1, 2, 3, 4, 8, 20, 500].map(backoffSeconds)).toEqual([30, 60, 120, 240, 3600, 3600, 3600]);
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
    expect(down.retrying).toBe(4);
    const rows = await outbox(t);
    expect(rows.every((r) => r.status === 'pending' && r.attempts === 1 && r.last_error)).toBe(true);
    expect(rows.every((r) => r.waiting_for_relay)).toBe(true);
    // Not due again before the backoff has passed.
    expect((await deliverDueMail(t.ctx.db, delivery)).retrying).toBe(0);

    const smtp = await startRelay(port);
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
      expect(rounds[0].sent + rounds[1].sent).toBe(4);
      expect((await deliverDueMail(t.ctx.db, delivery)).sent).toBe(0);
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
      (await deliverDueMail(t.ctx.db, { transport: null, from: 'a@b.example', isStandalone: false })).sent,
    ).toBe(0);
    expect(
      (await deliverDueMail(t.ctx.db, { transport: null, from: 'a@b.example', isStandalone: true })).sent,
    ).toBe(1);
    expect((await outbox(t, 'dev@acme.example'))[0]).toMatchObject({ status: 'sent', text_body: 't' });
  });
});

describe('classifySmtpFailure', () => {
  const smtpError = (command: string, response: string) =>
    Object.assign(new Error('x'), {
      code: 'EENVELOPE',
      command,
      response,
      responseCode: Number(response.slice(0, 3)),
    });
  it.each([
    ['refused connection', Object.assign(new Error('x'), { code: 'ESOCKET' }), false, true, 'ESOCKET'],
    ['relay closing (421)', smtpError('RCPT TO', '421 4.3.2 try later'), false, true, 'EENVELOPE 421'],
    [
      'bad login',
      Object.assign(smtpError('AUTH PLAIN', '535 5.7.8 bad'), { code: 'EAUTH' }),
      false,
      true,
      'EAUTH 535',
    ],
    ['sender refused', smtpError('MAIL FROM', '550 5.7.1 not you'), false, true, 'EENVELOPE 550'],
    ['recipient deferred', smtpError('RCPT TO', '451 4.2.2 mailbox busy'), false, false, '451 4.2.2'],
    [
      'recipient unknown',
      smtpError('RCPT TO', '550 5.1.1 <gone@acme.example>: no such\r\nuser'),
      true,
      false,
      '550 5.1.1 <gone@acme.example>: no such user',
    ],
    [
      'mailbox full after DATA',
      smtpError('DATA', '552 5.2.2 over quota'),
      true,
      false,
      '552 5.2.2 over quota',
    ],
    ['content refused after DATA', smtpError('DATA', '554 5.7.1 spam'), false, false, '554 5.7.1'],
  ])('%s', (_name, error, permanent, relayDown, summary) => {
    expect(classifySmtpFailure(error)).toEqual({ permanent, relayDown, summary });
  });
});

describe('the mailer', () => {
  it('sends a backlog over a few reused connections, not one per mail', async () => {
    const port = await freePort();
    const relay = await startRelay(port);
    const transport = nodemailer.createTransport(smtpOptions(`smtp://127.0.0.1:${port}`));
    try {
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          transport.sendMail({ from: 'a@b.example', to: `r${i}@acme.example`, subject: 's', text: 't' }),
        ),
      );
      expect(relay.total).toBe(30);
      expect(relay.connections).toBeLessThanOrEqual(SMTP_CONNECTIONS);
    } finally {
      transport.close();
      await relay.close();
    }
  });

  it('answers repeated status checks from one SMTP connection', async () => {
    const port = await freePort();
    const relay = await startRelay(port);
    const mailer = createMailer(`smtp://127.0.0.1:${port}`, false);
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => mailer.status()));
      for (let i = 0; i < 5; i++) answers.push(await mailer.status());
      expect(answers.every((a) => a.ok)).toBe(true);
      expect(relay.connections).toBe(1);
    } finally {
      mailer.close();
      await relay.close();
    }
  });

  it('answers the status at once while the relay hangs, from its last answer', async () => {
    const port = await freePort();
    const relay = await startRelay(port);
    let clock = 0;
    const mailer = createMailer(`smtp://127.0.0.1:${port}`, false, () => clock);
    // A relay that takes connections and never greets (a frozen process, a stuck proxy).
    const hung = createServer((socket) => sockets.push(socket));
    const sockets: Socket[] = [];
    try {
      expect(await mailer.status()).toEqual({ ok: true, text: 'SMTP relay reachable' });
      await relay.close();
      await new Promise<void>((resolve) => hung.listen(port, '127.0.0.1', resolve));
      clock += 11_000;
      // The probe now waits for a greeting (up to 5 s); the service check does not.
      const waited = new Promise((resolve) => setTimeout(() => resolve('waited'), 0));
      expect(await Promise.race([mailer.status(), waited])).toEqual({
        ok: true,
        text: 'SMTP relay reachable',
      });
      for (let i = 0; i < 100 && sockets.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(sockets.length).toBeGreaterThan(0);
      // Past the cache and the longest probe without an answer, the last one is not believed.
      clock += 10_000 + 25_000;
      expect(await mailer.status()).toEqual({
        ok: false,
        text: 'SMTP relay not answering for 46 s (mail waits in the outbox)',
      });
    } finally {
      mailer.close();
      for (const socket of sockets) socket.destroy();
      hung.close();
    }
  });
});

describe.each(testDatabaseKinds)('outbox retries and stops on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.ctx.db.deleteFrom('outbox').execute();
  });

  const queue = (recipients: string[]) =>
    t.ctx.db
      .insertInto('outbox')
      .values(
        recipients.map((recipient) => ({
          recipient,
          subject: 's',
          text_body: 'code ABCD',
          html_body: '<p>code ABCD</p>',
          template: 'test',
        })),
      )
      .execute();
  /** The simulated clock: every row's next slot has come. */
  const timePasses = () =>
    t.ctx.db
      .updateTable('outbox')
      .set({ next_attempt_at: sql<Date>`now() - interval '1 second'` })
      .execute();
  const deliveryTo = (port: number, extra: Partial<OutboxDelivery> = {}) => {
    const transport = nodemailer.createTransport(smtpOptions(`smtp://127.0.0.1:${port}`));
    return { from: 'portal@hospital.example', isStandalone: false, ...extra, transport };
  };

  it('keeps retrying a refusing relay past the old 20-attempt budget; each mail arrives once when it accepts', async () => {
    const port = await freePort();
    const recipients = ['a@acme.example', 'b@acme.example', 'c@acme.example'];
    await queue(recipients);
    let accepting = false;
    const relay = await startRelay(port, {
      refuse: () => (accepting ? undefined : '451 4.3.0 try again later'),
    });
    const delivery = deliveryTo(port);
    try {
      for (let round = 0; round < 25; round++) {
        await timePasses();
        expect((await deliverDueMail(t.ctx.db, delivery)).retrying).toBe(3);
      }
      const waiting = await outbox(t);
      expect(waiting.every((r) => r.status === 'pending' && r.attempts === 25)).toBe(true);
      expect(waiting.every((r) => r.last_error === '451 4.3.0' && r.text_body === 'code ABCD')).toBe(true);
      accepting = true;
      await timePasses();
      expect((await deliverDueMail(t.ctx.db, delivery)).sent).toBe(3);
      expect((await deliverDueMail(t.ctx.db, delivery)).sent).toBe(0);
      expect(Object.fromEntries(relay.received)).toEqual(Object.fromEntries(recipients.map((r) => [r, 1])));
    } finally {
      delivery.transport.close();
      await relay.close();
    }
  });

  it('ends only the permanently refused row, as undeliverable with its reason and no body', async () => {
    const port = await freePort();
    await queue(['a@acme.example', 'gone@acme.example', 'c@acme.example']);
    const relay = await startRelay(port, {
      refuse: (to) => (to === 'gone@acme.example' ? '550 5.1.1 no such user here' : undefined),
    });
    const delivery = deliveryTo(port);
    try {
      expect(await deliverDueMail(t.ctx.db, delivery)).toMatchObject({ sent: 2, undeliverable: 1 });
      const [gone] = await outbox(t, 'gone@acme.example');
      expect(gone).toMatchObject({
        status: 'undeliverable',
        attempts: 1,
        text_body: '',
        html_body: '',
        last_error: '550 5.1.1 no such user here',
      });
      expect(gone!.undeliverable_at).toBeTruthy();
      await timePasses();
      expect((await deliverDueMail(t.ctx.db, delivery)).undeliverable).toBe(0);
      expect(Object.fromEntries(relay.received)).toEqual({ 'a@acme.example': 1, 'c@acme.example': 1 });
    } finally {
      delivery.transport.close();
      await relay.close();
    }
  });

  it('makes the rows that waited for the relay due at once when a mail goes through', async () => {
    const port = await freePort();
    await queue(['a@acme.example', 'b@acme.example']);
    const delivery = deliveryTo(port);
    expect((await deliverDueMail(t.ctx.db, delivery)).retrying).toBe(2); // relay down
    // A row deferred for its own mailbox's reason is not the relay's backlog: it keeps its slot.
    await t.ctx.db
      .insertInto('outbox')
      .values({
        recipient: 'busy@acme.example',
        subject: 's',
        text_body: 't',
        html_body: 'h',
        template: 'test',
        attempts: 3,
        last_error: '451 4.2.2',
        next_attempt_at: sql<Date>`now() + interval '1 hour'`,
      })
      .execute();
    const relay = await startRelay(port);
    try {
      await queue(['new@acme.example']);
      const first = await deliverDueMail(t.ctx.db, delivery);
      expect(first).toMatchObject({ sent: 1, more: true });
      const backedOff = await t.ctx.db
        .selectFrom('outbox')
        .select(['recipient', sql<boolean>`next_attempt_at <= now()`.as('due')])
        .where('status', '=', 'pending')
        .orderBy('recipient')
        .execute();
      expect(backedOff).toEqual([
        { recipient: 'a@acme.example', due: true },
        { recipient: 'b@acme.example', due: true },
        { recipient: 'busy@acme.example', due: false },
      ]);
      expect((await deliverDueMail(t.ctx.db, delivery)).sent).toBe(2);
    } finally {
      delivery.transport.close();
      await relay.close();
    }
  });

  it('never waits on one slow mail: the other lanes go on through the whole backlog', async () => {
    const port = await freePort();
    const others = Array.from({ length: 11 }, (_, i) => `vendor${i}@acme.example`);
    await queue(['slow@acme.example', ...others]);
    const relay = await startRelay(port, { delayFor: (to) => (to === 'slow@acme.example' ? 4_000 : 0) });
    // Batches of 4 over 3 connections: the slow mail is in the first batch.
    const delivery = deliveryTo(port, { concurrency: 3, batchSize: 4 });
    try {
      const round = deliverDueMail(t.ctx.db, delivery);
      const sentBy = async (ms: number) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return (await outbox(t)).filter((row) => row.status === 'sent').map((row) => row.recipient);
      };
      // Well before the slow mail is done, every other one has gone out (before: only the first
      // batch's 3, the rest waited for the slow one's round to end).
      const early = await sentBy(2_500);
      expect(early.sort()).toEqual([...others].sort());
      expect(await round).toMatchObject({ sent: 12, retrying: 0 });
    } finally {
      delivery.transport.close();
      await relay.close();
    }
  });

  it('gives up on a mail that outlives its own timeout and retries it later, as this mail failing, not the relay', async () => {
    const port = await freePort();
    await queue(['slow@acme.example', 'a@acme.example', 'b@acme.example']);
    // The timeout is long enough that the quick mails pass it on a loaded CI machine (500 ms did
    // not, beside the journeys), and the slow mail's hold far longer than the round may take.
    const relay = await startRelay(port, { delayFor: (to) => (to === 'slow@acme.example' ? 6_000 : 0) });
    const delivery = deliveryTo(port, { concurrency: 3, sendTimeoutMs: 2_000 });
    try {
      const started = Date.now();
      const round = await deliverDueMail(t.ctx.db, delivery);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(round).toMatchObject({ sent: 2, retrying: 1, relayDown: null });
      const slow = (await outbox(t)).find((row) => row.recipient === 'slow@acme.example');
      expect(slow).toMatchObject({ status: 'pending', attempts: 1, last_error: 'send timed out' });
    } finally {
      delivery.transport.close();
      await relay.close();
    }
  }, 15_000);

  it('stops between mails and hands the unsent claims back at once', async () => {
    const port = await freePort();
    await queue(['a@acme.example', 'b@acme.example', 'c@acme.example', 'd@acme.example']);
    const relay = await startRelay(port, { delayMs: 300 });
    const delivery = deliveryTo(port);
    const controller = new AbortController();
    try {
      const round = deliverDueMail(t.ctx.db, delivery, { signal: controller.signal, inFlight: new Set() });
      // The stop comes while the first mail is at the relay (which holds its answer 300 ms): not
      // after a fixed time, which a busy machine can pass before the first mail has even left.
      while (relay.total < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
      expect(await round).toMatchObject({ sent: 1, released: 3, more: false });
      const rows = await outbox(t);
      expect(rows.filter((r) => r.status === 'pending' && r.locked_until === null)).toHaveLength(3);
      expect(relay.total).toBe(1);
    } finally {
      delivery.transport.close();
      await relay.close();
    }
  });

  it('gives mails in flight the time it is told at stop, then hands them back too', async () => {
    const port = await freePort();
    await queue(['a@acme.example', 'b@acme.example']);
    const relay = await startRelay(port, { delayMs: 3_000 });
    const delivery = deliveryTo(port, { concurrency: 2 });
    try {
      const worker = startOutboxWorker(t.ctx.db, delivery, 10);
      while (relay.total < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      const started = performance.now();
      await worker.stop(200);
      // Well within the relay's 3 s hold: it did not wait for the mails in flight.
      expect(performance.now() - started).toBeLessThan(2_000);
      const rows = await outbox(t);
      expect(rows.map((r) => [r.status, r.locked_until])).toEqual([
        ['pending', null],
        ['pending', null],
      ]);
    } finally {
      delivery.transport.close();
      await relay.close();
    }
  });

  it('asks the relay whether it is back while mail waits for it, and sends that mail at once when it is', async () => {
    const port = await freePort();
    await queue(['a@acme.example', 'b@acme.example']);
    const delivery = deliveryTo(port);
    expect((await deliverDueMail(t.ctx.db, delivery)).retrying).toBe(2);
    // Backed off to the cap, long after the outage began.
    await t.ctx.db
      .updateTable('outbox')
      .set({ attempts: 12, next_attempt_at: sql<Date>`now() + interval '1 hour'` })
      .execute();
    const relay = await startRelay(port);
    const worker = startOutboxWorker(t.ctx.db, delivery, 10);
    try {
      const deadline = Date.now() + 10_000;
      while (relay.total < 2 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(Object.fromEntries(relay.received)).toEqual({ 'a@acme.example': 1, 'b@acme.example': 1 });
    } finally {
      await worker.stop();
      delivery.transport.close();
      await relay.close();
    }
  });

  it('logs a database outage once a minute at most, with its reason but not the error, and its end once', async () => {
    // Every query fails as a refused connection while `down`: the worker's rounds fail every 10 ms.
    const state = { down: true, failedQueries: 0 };
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' });
    const outage: KyselyPlugin = {
      transformQuery(args) {
        if (state.down) {
          state.failedQueries += 1;
          throw refused;
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const lines: { level: string; fields: object; message: string }[] = [];
    const at = (level: string) => (fields: object, message: string) =>
      void lines.push({ level, fields, message });
    const log = {
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
    } as unknown as OutboxDelivery['log'];
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const worker = startOutboxWorker(
      runAfterCommits(t.ctx.db.withPlugin(outage)),
      { transport: null, from: 'portal@hospital.example', isStandalone: true, log },
      10,
    );
    try {
      await until(() => state.failedQueries >= 20);
      expect(lines).toEqual([
        {
          level: 'error',
          fields: { reason: 'ECONNREFUSED', moreSinceLastLine: 0 },
          message: 'outbox: database unavailable; will retry',
        },
      ]);
      expect(JSON.stringify(lines)).not.toContain('10.0.0.7');
      state.down = false;
      await until(() => lines.length > 1);
      expect(lines.slice(1)).toEqual([
        {
          level: 'info',
          fields: { moreSinceLastLine: expect.any(Number) },
          message: 'outbox: database reachable again',
        },
      ]);
      expect((lines[1]?.fields as { moreSinceLastLine: number }).moreSinceLastLine).toBeGreaterThanOrEqual(
        19,
      );
      // Rounds go on without the database failing: nothing more is said.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines).toHaveLength(2);
    } finally {
      await worker.stop();
    }
  });

  it('says a relay outage once a minute at most, not once per mail, and its end once', async () => {
    const port = await freePort();
    await queue(['a@acme.example', 'b@acme.example', 'c@acme.example']);
    const lines: { level: string; fields: object; message: string }[] = [];
    const at = (level: string) => (fields: object, message: string) =>
      void lines.push({ level, fields, message });
    const delivery = deliveryTo(port, {
      log: { info: at('info'), warn: at('warn'), error: at('error') } as unknown as OutboxDelivery['log'],
    });
    const until = async (done: () => Promise<boolean> | boolean) => {
      const deadline = Date.now() + 10_000;
      while (!(await done()) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const worker = startOutboxWorker(t.ctx.db, delivery, 10);
    let relay: Awaited<ReturnType<typeof startRelay>> | undefined;
    try {
      // Three rounds with the relay down: every mail fails each time, one line in all.
      for (let round = 1; round <= 3; round++) {
        await until(async () => (await outbox(t)).every((row) => row.attempts === round));
        if (round < 3) await timePasses();
      }
      expect(lines).toEqual([
        {
          level: 'error',
          // nodemailer's code for a connection the relay refused.
          fields: { reason: 'ESOCKET', moreSinceLastLine: 0 },
          message: 'outbox: mail relay unavailable; mail kept for retry',
        },
      ]);
      relay = await startRelay(port);
      await timePasses();
      await until(() => relay!.total === 3);
      await until(() => lines.length > 1);
      expect(lines.slice(1)).toEqual([
        { level: 'info', fields: { moreSinceLastLine: 2 }, message: 'outbox: mail relay reachable again' },
      ]);
    } finally {
      await worker.stop();
      delivery.transport.close();
      await relay?.close();
    }
  });
});
