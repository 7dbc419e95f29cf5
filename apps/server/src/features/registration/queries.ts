import type { EmailInUseResult } from '@pra/contracts';
import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';
import { hasKindSql } from '../../identity/account-kinds';

/** Active organizations owning an email domain, by name. */
export async function activeOrganizationsForDomain(
  db: Db | Tx,
  domain: string,
): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('organizations as o')
    .innerJoin('organization_domains as d', 'd.organization_id', 'o.id')
    .select(['o.id', 'o.name'])
    .where('d.domain', '=', domain.toLowerCase())
    .where('o.is_active', '=', true)
    .orderBy('o.name')
    .execute();
}

/** Whether an email is free, on a non-terminated account, or on a pending registration. */
export async function emailUse(db: Db | Tx, email: string): Promise<EmailInUseResult> {
  const folded = email.toLowerCase();
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(email)`, '=', folded)
    .where('status', '!=', 'terminated')
    .executeTakeFirst();
  if (account) return 'activeAccount';
  const pending = await db
    .selectFrom('requests')
    .select('id')
    .where(sql<string>`lower(email)`, '=', folded)
    .where('type', '=', 'New Account')
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return pending ? 'pendingApproval' : 'available';
}

/**
 * Serializes every registration and approval touching one email address, so the in-transaction
 * re-check of `emailUse` cannot be raced (also for BRM registrations, which no unique index covers).
 */
export async function lockEmail(tx: Tx, email: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`email:${email.toLowerCase()}`}))`.execute(tx);
}

/**
 * Who decides a registration for the organization: its active BRMs, or — when it has none — the
 * active admins, so that no registration waits unseen.
 */
export async function decidersOf(db: Db | Tx, organizationId: string): Promise<string[]> {
  const brms = await db
    .selectFrom('accounts as a')
    .innerJoin('brm_assignments as b', 'b.account_id', 'a.id')
    .select('a.email')
    .where('b.organization_id', '=', organizationId)
    .where('a.status', '=', 'active')
    .where(hasKindSql('a', 'employeeBrm'))
    .execute();
  if (brms.length > 0) return brms.map((r) => r.email);
  const admins = await db
    .selectFrom('accounts as a')
    .select('a.email')
    .where(hasKindSql('a', 'admin'))
    .where('a.status', '=', 'active')
    .execute();
  return admins.map((r) => r.email);
}
