import { CompiledQuery } from 'kysely';
import { preparedStatement, type Db } from '../platform/db';
import type { Account, SystemMessageTable } from '../platform/db-schema';
import { SameTickBatcher } from '../platform/same-tick-batcher';
import type { StoredSession } from './sessions';

/**
 * The per-request lookup: the live session, its account while active, and (when the route asks)
 * the account's organizations, in one round trip. The SQL is written once, not built per request
 * (it runs on every signed-in call, so compiling it each time was a visible share of the CPU), and
 * PostgreSQL keeps it prepared per connection (its planning cost several times its execution).
 */
const sessionColumns = `s.id_hash as s_id_hash, s.account_id as s_account_id, s.expires_at as s_expires_at,
  s.extensions_used as s_extensions_used, s.authenticated_at as s_authenticated_at,
  s.reauthenticated_until as s_reauthenticated_until, s.data as s_data`;

// $1: the id hashes of every request in the batch (see selectLiveSession), as a text[] literal.
const from = `from sessions s
  left join accounts a on a.id = s.account_id and a.status = 'active'
  where s.id_hash = any($1::text[]) and s.revoked_at is null and s.expires_at > now()`;

/**
 * The organizations a person acts for (the organization policy's `manage` for employees:
 * policies/organization.ts, written again as SQL text for the prepared statement): a vendor's held roles, a
 * BRM's managed organizations, every active organization for an admin. Names, sorted.
 *
 * Each name is read by its key (a scalar subquery on organizations' primary key), not joined: with
 * hundreds of organizations the planner hashed the whole table once per person looked up, and a
 * batch of 50 vendors' lookups took 3.3 ms of PostgreSQL's time instead of 1.5 (500
 * organizations, npm run bench:scale). The foreign keys make both forms the same names.
 */
export const organizationsActedForSql = `case
    when a.id is null then null
    when a.type = 'employee' and a.is_admin then
      array(select o.name from organizations o where o.is_active order by o.name)
    when a.type = 'employee' then
      array(select (select o.name from organizations o where o.id = b.organization_id) as name
            from brm_assignments b where b.account_id = a.id order by 1)
    else
      array(select (select o.name from organizations o where o.id = g.organization_id) as name
            from role_grants g where g.account_id = a.id order by 1)
  end`;
const organizations = `${organizationsActedForSql} as s_organizations`;

/**
 * Every column of the account, named (the statements are prepared: a prepared `a.*` would fail
 * on every connection once a migration adds a column). The check below keeps the list complete.
 */
const accountColumnNames = [
  'id',
  'username',
  'given_name',
  'family_name',
  'email',
  'job_title',
  'manager',
  'type',
  'is_employee_brm',
  'is_admin',
  'status',
  'password_hash',
  'password_changed_at',
  'created_at',
  'updated_at',
  'last_sign_in_at',
  'disabled_reason',
  'disabled_at',
  'is_auditor',
  'active_since',
  'leaving_on',
  'leaving_ends_role',
  'responsibilities_transferred_at',
  'aup_overdue_since',
] as const satisfies readonly (keyof Account)[];
type Unlisted = Exclude<keyof Account, (typeof accountColumnNames)[number]>;
const everyAccountColumnListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyAccountColumnListed;
const accountColumns = accountColumnNames.map((column) => `a.${column}`).join(', ');

const withoutOrganizations = preparedStatement(
  'pra_session',
  `select ${accountColumns}, ${sessionColumns} ${from}`,
);
// The operator's maintenance switch rides along with the organizations: the current-user record
// (the route that asks for them) reports it as iiqAvailable, still in one round trip.
const maintenance = `(select p.maintenance from portal_settings p where p.id = 1) as s_maintenance`;
const withOrganizations = preparedStatement(
  'pra_session_organizations',
  `select ${accountColumns}, ${sessionColumns}, ${organizations}, ${maintenance} ${from}`,
);

// A page drawn with its boot data (http/web-app.ts) also shows the operator's banner: its one row
// rides along too, as JSON (its times as text), so the page costs one statement.
const systemMessage = `(select row_to_json(m) from system_message m where m.id = 1) as s_system_message`;
const forPage = preparedStatement(
  'pra_session_page',
  `select ${accountColumns}, ${sessionColumns}, ${organizations}, ${maintenance}, ${systemMessage} ${from}`,
);

/** The banner's row as the session lookup for a page reads it (row_to_json: times as text). */
export type SystemMessageJson = Omit<SystemMessageTable, 'starts_at' | 'ends_at' | 'updated_at'> & {
  starts_at: string | null;
  ends_at: string | null;
};

/** What a lookup loads beside the session: a route's organizations, a page's banner too. */
export type SessionLookup = 'session' | 'organizations' | 'page';

export type SessionRow = StoredSession & {
  /** The session's account while it is active, else null. */
  account: Account | null;
  /** Only when asked for, and only with an active account. */
  organizations: string[] | null;
  /** The maintenance flag admins switch, loaded with the organizations; null when not asked for. */
  maintenanceFlag: boolean | null;
  /** The banner's row (null: none stored), for a page's lookup only; undefined otherwise. */
  systemMessage?: SystemMessageJson | null;
};

type Raw = Partial<Account> & {
  s_id_hash: string;
  s_account_id: string | null;
  s_expires_at: Date | string;
  s_extensions_used: number;
  s_authenticated_at: Date | null;
  s_reauthenticated_until: Date | null;
  s_data: Record<string, unknown>;
  s_organizations?: string[] | null;
  s_maintenance?: boolean | null;
  s_system_message?: SystemMessageJson | null;
};

function toSessionRow(row: Raw, lookup: SessionLookup): SessionRow {
  const {
    s_id_hash,
    s_account_id,
    s_expires_at,
    s_extensions_used,
    s_authenticated_at,
    s_reauthenticated_until,
    s_data,
    s_organizations,
    s_maintenance,
    s_system_message,
    ...account
  } = row;
  const organizations = lookup !== 'session';
  return {
    idHash: s_id_hash,
    accountId: s_account_id,
    expiresAt: new Date(s_expires_at),
    extensionsUsed: s_extensions_used,
    authenticatedAt: s_authenticated_at,
    reauthenticatedUntil: s_reauthenticated_until,
    data: s_data,
    account: account.id ? (account as Account) : null,
    organizations: s_organizations ?? null,
    maintenanceFlag: organizations ? (s_maintenance ?? false) : null,
    ...(lookup === 'page' ? { systemMessage: s_system_message ?? null } : {}),
  };
}

/** A row another request may change without this one seeing it: the mutable values copied. */
function copyOfRow(row: Raw): Raw {
  return {
    ...row,
    s_data: structuredClone(row.s_data),
    ...(row.s_organizations ? { s_organizations: [...row.s_organizations] } : {}),
  };
}

/** Our id hashes are base64url (sha256): safe, unquoted, in a PostgreSQL array literal. */
const idHashPattern = /^[A-Za-z0-9_-]+$/;

/**
 * One statement for every id hash of a batch, one row (or null) per hash asked for. Two requests
 * with the same cookie in one batch each get their own objects (toSessionRow makes the session
 * and account objects; the data and the organizations are copied here).
 */
async function lookUpBatch(
  db: Db,
  text: string,
  lookup: SessionLookup,
  idHashes: readonly string[],
): Promise<(SessionRow | null)[]> {
  const unique = [...new Set(idHashes)];
  const { rows } = await db.executeQuery<Raw>(CompiledQuery.raw(text, [`{${unique.join(',')}}`]));
  const byHash = new Map(rows.map((row) => [row.s_id_hash, row]));
  const handedOut = new Set<string>();
  return idHashes.map((idHash) => {
    const row = byHash.get(idHash);
    if (!row) return null;
    const own = handedOut.has(idHash) ? copyOfRow(row) : row;
    handedOut.add(idHash);
    return toSessionRow(own, lookup);
  });
}

type SessionBatchers = Record<SessionLookup, SameTickBatcher<string, SessionRow | null>>;
/** The lookups of each database, one batcher per statement. */
const batchers = new WeakMap<Db, SessionBatchers>();

function batchersOf(db: Db): SessionBatchers {
  let own = batchers.get(db);
  if (!own) {
    own = {
      session: new SameTickBatcher((hashes) => lookUpBatch(db, withoutOrganizations, 'session', hashes)),
      organizations: new SameTickBatcher((hashes) =>
        lookUpBatch(db, withOrganizations, 'organizations', hashes),
      ),
      page: new SameTickBatcher((hashes) => lookUpBatch(db, forPage, 'page', hashes)),
    };
    batchers.set(db, own);
  }
  return own;
}

/**
 * The live (not expired, not revoked) session with this id hash, with its active account.
 *
 * Lookups that arrive in the same turn of the event loop share one query (`id_hash = any(...)`,
 * through platform/same-tick-batcher.ts): under load one round trip serves many requests instead
 * of each holding a pool connection for its own. Nothing is cached: every lookup runs after its
 * request arrived, so a logout, disable or revocation committed before then, on any instance, is
 * seen exactly as with a query of its own.
 */
export function selectLiveSession(
  db: Db,
  idHash: string,
  options: { organizations: boolean; systemMessage?: boolean },
): Promise<SessionRow | null> {
  if (!idHashPattern.test(idHash)) return Promise.resolve(null);
  const lookup = options.systemMessage ? 'page' : options.organizations ? 'organizations' : 'session';
  return batchersOf(db)[lookup].load(idHash);
}
