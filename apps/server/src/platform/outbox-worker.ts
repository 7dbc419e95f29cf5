import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Transporter } from 'nodemailer';
import type { Db } from './db';

export interface OutboxDelivery {
  /** The SMTP transport; null when no relay is configured. */
  transport: Transporter | null;
  from: string;
  /** Standalone without SMTP: the dev mailbox is the delivery, so rows are simply marked sent. */
  isStandalone: boolean;
  batchSize?: number;
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/** A claim lasts longer than the SMTP timeouts (5 s + 5 s + 15 s), so no two workers send one row. */
const CLAIM_SECONDS = 120;
export const MAX_ATTEMPTS = 20;
const BACKOFF_BASE_SECONDS = 30;
const BACKOFF_CAP_SECONDS = 3600;

/** Seconds to wait before the next try after `attempts` failures: 30 s × 2^(n-1), at most an hour. */
export function backoffSeconds(attempts: number): number {
  return Math.min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Claims due rows (`FOR UPDATE SKIP LOCKED`, then a lease in `locked_until`) in a short
 * transaction of its own, so several instances share the work without sending a row twice.
 */
async function claimDue(db: Db, batchSize: number) {
  return db.transaction().execute(async (tx) => {
    const due = await tx
      .selectFrom('outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', sql<Date>`now()`)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
      .orderBy('next_attempt_at')
      .limit(batchSize)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    return tx
      .updateTable('outbox')
      .set({ locked_until: sql<Date>`now() + ${`${CLAIM_SECONDS} seconds`}::interval` })
      .where(
        'id',
        'in',
        due.map((r) => r.id),
      )
      .returningAll()
      .execute();
  });
}

/** Delivers what is due once; returns how many rows were sent and how many failed this round. */
export async function deliverDueMail(
  db: Db,
  delivery: OutboxDelivery,
): Promise<{ sent: number; failed: number }> {
  if (!delivery.transport && !delivery.isStandalone) return { sent: 0, failed: 0 };
  const rows = await claimDue(db, delivery.batchSize ?? 20);
  let sent = 0;
  let failed = 0;
  for (const row of rows) {
    try {
      if (delivery.transport) {
        await delivery.transport.sendMail({
          from: delivery.from,
          to: row.recipient,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
        });
      }
      await db
        .updateTable('outbox')
        .set({
          status: 'sent',
          sent_at: sql<Date>`now()`,
          locked_until: null,
          last_error: null,
          // Bodies may carry activation or reset codes: once delivered they are not kept, except
          // in standalone mode, where the dev mailbox is how people read them.
          ...(delivery.isStandalone ? {} : { text_body: '', html_body: '' }),
        })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .execute();
      sent += 1;
    } catch (error) {
      failed += 1;
      const attempts = row.attempts + 1;
      // Only the error's kind is kept: SMTP replies may echo addresses or credentials.
      const code = (error as { code?: unknown }).code;
      const lastError = typeof code === 'string' ? code.slice(0, 50) : 'send failed';
      const givesUp = attempts >= MAX_ATTEMPTS;
      await db
        .updateTable('outbox')
        .set({
          attempts,
          status: givesUp ? 'failed' : 'pending',
          // A mail given up on is never read again: do not keep the code it may carry.
          ...(givesUp && !delivery.isStandalone ? { text_body: '', html_body: '' } : {}),
          next_attempt_at: sql<Date>`now() + ${`${backoffSeconds(attempts)} seconds`}::interval`,
          locked_until: null,
          last_error: lastError,
        })
        .where('id', '=', row.id)
        .execute();
      if (givesUp) {
        delivery.log?.error({ outboxId: row.id, attempts, error: lastError }, 'mail delivery given up');
      } else {
        delivery.log?.warn(
          { outboxId: row.id, attempts, error: lastError },
          'mail delivery failed; will retry',
        );
      }
    }
  }
  return { sent, failed };
}

/** Polls the outbox every `intervalMs` until stopped; `stop` waits for the round in progress. */
export function startOutboxWorker(
  db: Db,
  delivery: OutboxDelivery,
  intervalMs = 2_000,
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = deliverDueMail(db, delivery)
      .then(() => undefined)
      .catch((error: unknown) => delivery.log?.error({ err: error }, 'outbox round failed; will retry'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
