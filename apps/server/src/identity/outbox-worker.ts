import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Db } from '../platform/db';
import { unavailableReason } from '../platform/db-errors';
import { classifySmtpFailure, type SmtpFailure } from '../platform/mailer';
import {
  claimDueMail,
  finishMail,
  hasMailWaitingForRelay,
  markMailRetry,
  releaseMailClaims,
  resetRelayBackoff,
  type OutboxRow,
} from '../store/outbox';
import { OutageLog } from '../platform/outage-log';

export interface OutboxDelivery {
  /** The SMTP transport; null when no relay is configured. */
  transport: Transporter | null;
  from: string;
  /** Standalone without SMTP: the dev mailbox is the delivery, so rows are simply marked sent. */
  isStandalone: boolean;
  batchSize?: number;
  /** Mails sent at once (the pooled transport's connections). */
  concurrency?: number;
  /** The longest one mail may take; past it the mail is retried later (default MAIL_SEND_TIMEOUT_MS). */
  sendTimeoutMs?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** How a round is told to stop between mails, and which rows it is sending right now. */
export interface RoundControl {
  signal: AbortSignal;
  inFlight: Set<string>;
}

export interface DeliveryRound {
  sent: number;
  /** Temporary failures: the rows wait for their next try. */
  retrying: number;
  undeliverable: number;
  /** The relay's own failure this round (its summary: the rest of the round was not tried). */
  relayDown: string | null;
  /** Claimed rows handed back unsent because the worker is stopping. */
  released: number;
  /** Mail went through and more is due (a full batch, or backed-off rows made due): go on at once. */
  more: boolean;
}

const BACKOFF_BASE_SECONDS = 30;
const BACKOFF_CAP_SECONDS = 3600;

/** Seconds to wait before the next try after `attempts` failures: 30 s × 2^(n-1), at most an hour, forever. */
export function backoffSeconds(attempts: number): number {
  return Math.min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * 2 ** Math.max(0, Math.min(attempts, 30) - 1));
}

/**
 * The longest one mail may take, whatever the relay does (the connection's own timeouts count
 * silence, not a relay that answers slowly): past it the mail is retried at its backoff.
 */
export const MAIL_SEND_TIMEOUT_MS = 20_000;

/**
 * Delivers what is due. Several rows go out at once (one per pooled connection), each lane taking
 * the next row as soon as its mail is done and claiming more while mail is due, so one slow mail
 * holds up its own lane only, never the rest of the backlog. The stop signal is checked before
 * each mail, and claimed rows not yet sent are handed back at once.
 * A temporary failure is retried forever at the capped backoff; only a permanent refusal of the
 * recipient ends a row, as undeliverable. When the relay itself fails, the rest of the round is
 * not tried (they share its fate); when a mail goes through, rows that waited for the relay are
 * due again at once.
 */
export async function deliverDueMail(
  db: Db,
  delivery: OutboxDelivery,
  control: RoundControl = { signal: new AbortController().signal, inFlight: new Set() },
): Promise<DeliveryRound> {
  const round: DeliveryRound = {
    sent: 0,
    retrying: 0,
    undeliverable: 0,
    relayDown: null,
    released: 0,
    more: false,
  };
  if (!delivery.transport && !delivery.isStandalone) return round;
  const batchSize = delivery.batchSize ?? 20;
  const queue = await claimDueMail(db, batchSize);
  let lastClaimFull = queue.length === batchSize;
  let relayFailure: SmtpFailure | undefined;
  // One claim at a time for all lanes: the lanes that find the queue empty wait on the same one.
  let claiming: Promise<void> | null = null;
  const claimMore = () =>
    (claiming ??= claimDueMail(db, batchSize)
      .then((more) => {
        queue.push(...more);
        lastClaimFull = more.length === batchSize;
      })
      .finally(() => {
        claiming = null;
      }));

  const lane = async () => {
    while (!control.signal.aborted) {
      if (queue.length === 0 && lastClaimFull && !relayFailure) await claimMore();
      const row = queue.shift();
      if (!row) return;
      control.inFlight.add(row.id);
      try {
        const failure = relayFailure ?? (await send(delivery, row));
        if (!failure) {
          await finishMail(db, row.id, { sent: true }, !delivery.isStandalone);
          round.sent += 1;
        } else {
          if (failure.relayDown) {
            relayFailure = failure;
            round.relayDown = failure.summary;
          }
          await recordFailure(db, delivery, row, failure, round);
        }
      } finally {
        control.inFlight.delete(row.id);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, delivery.concurrency ?? 1) }, lane));

  if (queue.length > 0) {
    round.released = await releaseMailClaims(
      db,
      queue.map((r) => r.id),
    );
  }
  if (round.sent > 0 && !control.signal.aborted) {
    const madeDue = await resetRelayBackoff(db);
    round.more = lastClaimFull || madeDue > 0;
  }
  return round;
}

/** What a mail that outlived its send timeout records: this mail's failure, not the relay's. */
const sendTimedOut: SmtpFailure = { permanent: false, relayDown: false, summary: 'send timed out' };

/** Sends one row; undefined when it went through, else what the failure means. */
async function send(delivery: OutboxDelivery, row: OutboxRow): Promise<SmtpFailure | undefined> {
  if (!delivery.transport) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<SmtpFailure>((resolve) => {
    timer = setTimeout(() => resolve(sendTimedOut), delivery.sendTimeoutMs ?? MAIL_SEND_TIMEOUT_MS);
  });
  const sent = delivery.transport
    .sendMail({
      from: delivery.from,
      to: row.recipient,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
    })
    .then(
      () => undefined,
      (error: unknown) => classifySmtpFailure(error),
    );
  try {
    // A mail given up on may still reach the relay later: it is then sent once more at its retry
    // (at least once, never lost).
    return await Promise.race([sent, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function recordFailure(
  db: Db,
  delivery: OutboxDelivery,
  row: OutboxRow,
  failure: SmtpFailure,
  round: DeliveryRound,
): Promise<void> {
  const attempts = row.attempts + 1;
  if (failure.permanent) {
    round.undeliverable += 1;
    await finishMail(db, row.id, { undeliverable: failure.summary }, !delivery.isStandalone);
    delivery.log?.warn(
      { outboxId: row.id, template: row.template, attempts, reason: failure.summary },
      'mail undeliverable: the relay refused its recipient',
    );
    return;
  }
  round.retrying += 1;
  await markMailRetry(db, row.id, {
    attempts,
    delaySeconds: backoffSeconds(attempts),
    error: failure.summary,
    waitingForRelay: failure.relayDown,
  });
  // A relay that is down fails every mail alike: the worker says so once (relayOutage), not per mail.
  if (!failure.relayDown) {
    delivery.log?.warn(
      { outboxId: row.id, attempts, error: failure.summary },
      'mail delivery failed; will retry',
    );
  }
}

export interface OutboxWorker {
  /**
   * Stops between mails: claimed rows not yet sent are handed back at once; mails being sent get
   * `withinMs` to finish, then are abandoned (handed back too: they may be sent once more, never lost).
   */
  stop(withinMs?: number): Promise<void>;
}

/**
 * While mail waits for the relay and nothing is due, the worker asks the relay this often whether it
 * is back, so a backlog backed off to the 1 h cap leaves within seconds of its return, not at its slot.
 */
const RELAY_PROBE_MS = 30_000;

/** Mail waits for the relay: if it answers now, that mail is due at once. Returns how many rows. */
async function probeRelay(db: Db, delivery: OutboxDelivery): Promise<number> {
  if (!delivery.transport || !(await hasMailWaitingForRelay(db))) return 0;
  try {
    await delivery.transport.verify();
  } catch {
    return 0;
  }
  return resetRelayBackoff(db);
}

/** At most one line a minute while the database is out (a round fails every `intervalMs`). */
const OUTAGE_LINE_MS = 60_000;

/** Polls the outbox every `intervalMs`, and at once again while a backlog is going out. */
export function startOutboxWorker(db: Db, delivery: OutboxDelivery, intervalMs = 2_000): OutboxWorker {
  const controller = new AbortController();
  const inFlight = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let lastProbe = -Infinity;
  const nextDelay = async (round: DeliveryRound) => {
    if (round.more) return 0;
    const idle = round.sent + round.retrying + round.undeliverable === 0;
    if (idle && !controller.signal.aborted && performance.now() - lastProbe >= RELAY_PROBE_MS) {
      lastProbe = performance.now();
      if ((await probeRelay(db, delivery)) > 0) return 0;
    }
    return intervalMs;
  };
  // An outage of the database or of the relay fails round after round for as long as it lasts:
  // its lines are thinned out (one a minute) and its end is said once.
  const outage = new OutageLog('outbox: database unavailable; will retry', OUTAGE_LINE_MS);
  const relayOutage = new OutageLog('outbox: mail relay unavailable; mail kept for retry', OUTAGE_LINE_MS);
  const tick = () => {
    running = deliverDueMail(db, delivery, { signal: controller.signal, inFlight })
      .then((round) => {
        if (delivery.log) {
          outage.recovered(delivery.log, 'outbox: database reachable again');
          if (round.relayDown) relayOutage.failed(delivery.log, round.relayDown);
          else if (round.sent > 0) relayOutage.recovered(delivery.log, 'outbox: mail relay reachable again');
        }
        return nextDelay(round);
      })
      .catch((error: unknown) => {
        const reason = unavailableReason(error);
        if (!delivery.log) return intervalMs;
        if (reason) outage.failed(delivery.log, reason);
        else delivery.log.error({ err: error }, 'outbox round failed; will retry');
        return intervalMs;
      })
      .then((delay) => {
        if (!controller.signal.aborted) timer = setTimeout(tick, delay);
      });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    async stop(withinMs = 10_000) {
      controller.abort();
      clearTimeout(timer);
      let deadline: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        running.then(() => true),
        new Promise<boolean>((resolve) => {
          deadline = setTimeout(() => resolve(false), withinMs);
        }),
      ]);
      clearTimeout(deadline);
      if (!finished && inFlight.size > 0) {
        const ids = [...inFlight];
        await releaseMailClaims(db, ids);
        delivery.log?.warn({ outboxIds: ids }, 'shutdown abandoned mail being sent; it will be retried');
      }
    },
  };
}
