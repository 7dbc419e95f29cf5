import { sql, type Kysely } from 'kysely';

/**
 * Mail is never given up on for a temporary failure any more: a row ends only as `undeliverable`
 * when the relay permanently refuses its recipient (SMTP 5xx), with the reply's code and a short
 * reason in `last_error` and the time in `undeliverable_at`. `waiting_for_relay` marks rows whose
 * last failure was the relay itself (unreachable, timed out, 421): their backoff is reset as soon
 * as another mail goes through. Rows the old 20-attempt rule marked `failed` already lost their
 * body, so they cannot be sent as they are: they become `undeliverable` for admins to resend.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox drop constraint outbox_status_check`.execute(db);
  await sql`alter table outbox add column undeliverable_at timestamptz`.execute(db);
  await sql`alter table outbox add column waiting_for_relay boolean not null default false`.execute(db);
  await sql`
    update outbox set status = 'undeliverable', undeliverable_at = now(),
      last_error = 'retries exhausted (former 20-attempt limit): ' || coalesce(last_error, 'send failed')
    where status = 'failed'`.execute(db);
  await sql`
    alter table outbox add constraint outbox_status_check
      check (status in ('pending', 'sent', 'undeliverable'))`.execute(db);
  // Admins list these, and the service check counts them, without reading every sent row.
  await sql`
    create index outbox_undeliverable_idx on outbox (undeliverable_at) where status = 'undeliverable'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index outbox_undeliverable_idx`.execute(db);
  await sql`alter table outbox drop constraint outbox_status_check`.execute(db);
  await sql`update outbox set status = 'failed' where status = 'undeliverable'`.execute(db);
  await sql`
    alter table outbox add constraint outbox_status_check
      check (status in ('pending', 'sent', 'failed'))`.execute(db);
  await sql`alter table outbox drop column waiting_for_relay`.execute(db);
  await sql`alter table outbox drop column undeliverable_at`.execute(db);
}
