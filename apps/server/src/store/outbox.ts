import { sql, type RawBuilder, type Selectable } from 'kysely';
import { containsPattern } from './like';
import type { Db, Tx } from '../platform/db';
import type { Database, OutboxTable } from '../platform/db-schema';

// The owner of the `outbox` table (mail waiting to be sent; identity/outbox.ts queues it,
// identity/outbox-worker.ts delivers it).

export type OutboxRow = Selectable<OutboxTable>;

/**
 * A claim lasts longer than the SMTP timeouts (5 s + 5 s + 15 s), so no two workers send one row.
 * A worker that stops hands its unsent claims back at once; only a killed one leaves them to expire.
 */
const CLAIM_SECONDS = 120;

const interval = (seconds: number) => sql<Date>`now() + ${`${seconds} seconds`}::interval`;

/**
 * Claims due rows of a work queue (the mail outbox, the provisioning outbox: both have `status`,
 * `next_attempt_at` and `locked_until`) with `FOR UPDATE SKIP LOCKED`, then a lease in
 * `locked_until`, in a short transaction of its own, so several instances share the work without
 * two taking one row.
 */
export async function claimDue<T extends 'outbox' | 'provisioning'>(
  db: Db,
  table: T,
  batchSize: number,
  at: { now: Date | RawBuilder<Date>; leaseUntil: Date | RawBuilder<Date> },
): Promise<Selectable<Database[T]>[]> {
  // One statement for both tables: the columns it names have the same types in each.
  const queue = table as 'outbox';
  const rows = await db.transaction().execute(async (tx) => {
    const due = await tx
      .selectFrom(queue)
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at.now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at.now)]))
      .orderBy('next_attempt_at')
      .limit(batchSize)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    return tx
      .updateTable(queue)
      .set({ locked_until: at.leaseUntil })
      .where(
        'id',
        'in',
        due.map((r) => r.id),
      )
      .returningAll()
      .execute();
  });
  return rows as unknown as Selectable<Database[T]>[];
}

/** Claims due mail (see claimDue). */
export function claimDueMail(db: Db, batchSize: number): Promise<OutboxRow[]> {
  return claimDue(db, 'outbox', batchSize, { now: sql<Date>`now()`, leaseUntil: interval(CLAIM_SECONDS) });
}

/**
 * Bodies may carry activation or reset codes: a mail that is finished with (sent, or refused for
 * good) keeps none, except in standalone mode, where the dev mailbox is how people read them.
 */
const erasedBodies = (erase: boolean) => (erase ? { text_body: '', html_body: '' } : {});

/**
 * Ends a row: sent, or undeliverable (a permanent refusal of the recipient, kept with its reason
 * for admins and never tried again).
 */
export async function finishMail(
  db: Db,
  id: string,
  outcome: { sent: true } | { undeliverable: string },
  eraseBody: boolean,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set((eb) => ({
      ...('sent' in outcome
        ? { status: 'sent' as const, sent_at: sql<Date>`now()`, last_error: null }
        : {
            status: 'undeliverable' as const,
            undeliverable_at: sql<Date>`now()`,
            attempts: eb('attempts', '+', 1),
            last_error: outcome.undeliverable,
          }),
      locked_until: null,
      waiting_for_relay: false,
      ...erasedBodies(eraseBody),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function markMailRetry(
  db: Db,
  id: string,
  retry: { attempts: number; delaySeconds: number; error: string; waitingForRelay: boolean },
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      attempts: retry.attempts,
      next_attempt_at: interval(retry.delaySeconds),
      locked_until: null,
      last_error: retry.error,
      waiting_for_relay: retry.waitingForRelay,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Hands claimed rows back unsent, so another worker (or this one after a restart) takes them at once. */
export async function releaseMailClaims(db: Db, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('outbox')
    .set({ locked_until: null })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The relay answers again: rows that were only waiting for it are due now, not at their backed-off slot. */
export async function resetRelayBackoff(db: Db): Promise<number> {
  const result = await db
    .updateTable('outbox')
    .set({ next_attempt_at: sql<Date>`now()` })
    .where('status', '=', 'pending')
    .where('waiting_for_relay', '=', true)
    .where('next_attempt_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether any mail waits only for the relay to answer again. */
export async function hasMailWaitingForRelay(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('waiting_for_relay', '=', true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Queues a mail in the caller's transaction (see identity/outbox.ts's enqueueMail). */
export async function insertMail(
  tx: Tx,
  mail: { recipient: string; subject: string; text_body: string; html_body: string; template: string },
): Promise<void> {
  await tx.insertInto('outbox').values(mail).execute();
}

/** Queues many mails in the caller's transaction, in as few statements as can carry them. */
export async function insertMails(
  tx: Tx,
  mails: readonly {
    recipient: string;
    subject: string;
    text_body: string;
    html_body: string;
    template: string;
  }[],
): Promise<void> {
  for (let i = 0; i < mails.length; i += 500)
    await tx
      .insertInto('outbox')
      .values(mails.slice(i, i + 500))
      .execute();
}

export interface OutboxState {
  pending: number;
  undeliverable: number;
  /** Age of the oldest mail still waiting to be sent; 0 when none waits. */
  oldestPendingSeconds: number;
}

/** The outbox at a glance, for the service check and the metrics; each part from its index. */
export async function readOutboxState(db: Db): Promise<OutboxState> {
  const result = await sql<OutboxState>`
    select (select count(*) from outbox where status = 'pending')::int as "pending",
           (select count(*) from outbox where status = 'undeliverable')::int as "undeliverable",
           coalesce(extract(epoch from now() - (select min(created_at) from outbox
                                                where status = 'pending')), 0)::float8
             as "oldestPendingSeconds"`.execute(db);
  const row = result.rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    undeliverable: Number(row?.undeliverable ?? 0),
    oldestPendingSeconds: Number(row?.oldestPendingSeconds ?? 0),
  };
}

/** The newest messages, at most 200 (the dev mailbox). */
export async function listMessages(db: Db) {
  return db
    .selectFrom('outbox')
    .select(['id', 'recipient', 'subject', 'text_body', 'status', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
}

/** One message, for the dev mailbox. */
export async function findMessage(db: Db, id: string) {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The outbox as admins see it: mail not delivered yet after trying, and mail the relay refused. */
function undeliveredMail(db: Db, filter: string) {
  const query = db
    .selectFrom('outbox')
    .where((eb) =>
      eb.or([
        eb('status', '=', 'undeliverable'),
        eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)]),
      ]),
    );
  return filter
    ? query.where(sql<string>`lower(recipient || chr(31) || subject)`, 'like', containsPattern(filter))
    : query;
}

const mailColumns = [
  'id',
  'created_at',
  'recipient',
  'subject',
  'template',
  'status',
  'attempts',
  'last_error',
] as const;

export async function listUndeliveredMail(db: Db, limit = 200) {
  return undeliveredMail(db, '').select(mailColumns).orderBy('created_at', 'desc').limit(limit).execute();
}

/** Every undelivered mail (`total`) and those whose recipient or subject contains the filter. */
export async function countUndeliveredMail(db: Db, filter: string) {
  const count = async (text: string) =>
    (
      await undeliveredMail(db, text)
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const total = await count('');
  return { total, matching: filter ? await count(filter) : total };
}

const mailSortKeys = {
  createdAt: sql`created_at`,
  recipient: sql`lower(recipient)`,
  subject: sql`lower(subject)`,
};

/** One page of the undelivered mail the filter matches: newest first, or by a column (ties newest first). */
export async function pageUndeliveredMail(
  db: Db,
  page: {
    filter: string;
    sort: keyof typeof mailSortKeys | undefined;
    direction: 'asc' | 'desc';
    offset: number;
    limit: number;
  },
) {
  let query = undeliveredMail(db, page.filter).select(mailColumns);
  if (page.sort) query = query.orderBy(mailSortKeys[page.sort], page.direction);
  return query.orderBy('created_at', 'desc').orderBy('id').offset(page.offset).limit(page.limit).execute();
}

export async function findMailForUpdate(tx: Tx, id: string) {
  return tx.selectFrom('outbox').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** A pending mail is tried again now. */
export async function retryNow(tx: Tx, id: string): Promise<void> {
  await tx
    .updateTable('outbox')
    .set({ next_attempt_at: sql<Date>`now()`, locked_until: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** A mail replaced by a resend is never sent (its code has been superseded). */
export async function markSuperseded(tx: Tx, id: string): Promise<void> {
  await tx
    .updateTable('outbox')
    .set({ status: 'undeliverable', undeliverable_at: sql<Date>`now()`, last_error: 'replaced by a resend' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}
