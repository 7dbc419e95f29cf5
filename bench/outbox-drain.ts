// Outbox drain rate: 1,000 mails waiting in the outbox, the worker as the server runs it (pooled
// SMTP transport, its polling interval) into a local smtp-server, timed until the last is sent.
// On PostgreSQL when TEST_DATABASE_URL is set (production-style), else on the embedded database.
// The issue sets no goal: the row says 'report'. Alone: `node --import tsx bench/outbox-drain.ts`.
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import { createTestDatabase } from '../apps/server/test/support/databases';
import { startRelay } from '../apps/server/test/support/smtp';
import * as mailer from '../apps/server/src/platform/mailer';
import { startOutboxWorker } from '../apps/server/src/identity/outbox-worker';
import { freePort } from './processes';
import { printTable, type BenchRow } from './table';

const MAILS = 1_000;

export async function benchOutboxDrain(): Promise<BenchRow[]> {
  const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const database = await createTestDatabase(kind);
  const port = await freePort();
  const relay = await startRelay(port);
  const transport = nodemailer.createTransport(mailer.smtpOptions(`smtp://127.0.0.1:${port}`));
  try {
    await database.db
      .insertInto('outbox')
      .values(
        Array.from({ length: MAILS }, (_, i) => ({
          recipient: `vendor${i}@acme.example`,
          subject: 'Your PRA Portal account is ready',
          text_body: 'Activation code ABCD-EFGH-JKLM-NPQR\n'.repeat(10),
          html_body: '<p>Activation code ABCD-EFGH-JKLM-NPQR</p>'.repeat(10),
          template: 'account-approved',
        })),
      )
      .execute();
    const started = performance.now();
    const worker = startOutboxWorker(database.db, {
      transport,
      from: 'portal@hospital.example',
      isStandalone: false,
      // Absent before the pooled transport: then one mail at a time.
      concurrency: (mailer as { SMTP_CONNECTIONS?: number }).SMTP_CONNECTIONS ?? 1,
    });
    while (relay.total < MAILS) await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    return [
      {
        figure: `outbox drain, ${MAILS} mails, ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}`,
        value: MAILS / seconds,
        unit: 'mails/s',
        goal: { text: 'report' },
        note: `${seconds.toFixed(1)} s into a local SMTP server, ${relay.connections} SMTP connections`,
      },
    ];
  } finally {
    transport.close();
    await relay.close();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printTable(await benchOutboxDrain());
