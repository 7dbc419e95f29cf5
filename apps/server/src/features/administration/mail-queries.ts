import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';

/** The outbox as admins see it: mail not delivered yet after trying, and mail the relay refused. */
export async function listUndeliveredMail(db: Db, limit = 200) {
  return db
    .selectFrom('outbox')
    .select(['id', 'created_at', 'recipient', 'subject', 'template', 'status', 'attempts', 'last_error'])
    .where((eb) =>
      eb.or([
        eb('status', '=', 'undeliverable'),
        eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)]),
      ]),
    )
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
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

/** The vendor account still waiting for activation at this address, if any. */
/** The account of a mail's recipient in the given status (the one a code mail was for). */
export async function accountByEmail(tx: Tx, email: string, status: 'pendingActivation' | 'active') {
  return tx
    .selectFrom('accounts')
    .select(['id', 'username', 'given_name', 'email'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('status', '=', status)
    .executeTakeFirst();
}
