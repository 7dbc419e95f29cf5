import { sql } from 'kysely';
import type { AdminSystemMessage } from '@pra/contracts';
import type { Db, Tx } from '../platform/db';

// The owner of the one-row settings tables: `portal_settings` (the maintenance flag admins
// switch) and `system_message` (the operator's banner).

export async function readMaintenanceFlag(db: Db | Tx): Promise<boolean> {
  const row = await db
    .selectFrom('portal_settings')
    .select('maintenance')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row?.maintenance ?? false;
}

export async function writeMaintenanceFlag(tx: Tx, on: boolean): Promise<void> {
  await tx
    .updateTable('portal_settings')
    .set({ maintenance: on, updated_at: new Date() })
    .where('id', '=', 1)
    .execute();
}

/** The banner's row (id 1), if there is one. */
export async function findSystemMessage(db: Db | Tx) {
  return db.selectFrom('system_message').selectAll().where('id', '=', 1).executeTakeFirst();
}

/** The operator's banner as admins set it (the one row, id 1). */
export async function updateSystemMessage(tx: Tx, message: AdminSystemMessage): Promise<void> {
  await tx
    .updateTable('system_message')
    .set({
      enabled: message.enabled,
      logged_in_only: message.loggedInOnly,
      severity: message.severity,
      title: message.title,
      text: message.text,
      starts_at: message.startsAt,
      ends_at: message.endsAt,
      updated_at: new Date(),
    })
    .where('id', '=', 1)
    .execute();
}

/** The settings rows with their defaults, into an emptied database (the demo reset). */
export async function insertDefaultRows(db: Db): Promise<void> {
  await sql`insert into system_message (id) values (1)`.execute(db);
  await sql`insert into portal_settings (id) values (1)`.execute(db);
}

/** The standalone TEST_CLOCK's offset from the system clock (ms). */
export async function readClockOffset(db: Db | Tx): Promise<number> {
  const row = await db
    .selectFrom('portal_settings')
    .select('clock_offset_ms')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(row?.clock_offset_ms ?? 0);
}

export async function writeClockOffset(db: Db | Tx, offsetMs: number): Promise<void> {
  await db.updateTable('portal_settings').set({ clock_offset_ms: offsetMs }).where('id', '=', 1).execute();
}
