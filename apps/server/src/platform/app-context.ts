import type { BusyBatcher } from './busy-batcher';
import type { ExportWorkers } from './export-workers';
import type { Config } from '../config';
import type { IdentityStore } from './directory/identity-store';
import type { Clock } from './clock';
import type { Db, DbKind, PoolStats } from './db';
import type { Encryptor } from './encryption';
import type { IdpDescription } from './idp-metadata';
import type { KeyPair } from './keys';
import type { Versioned, VersionedCache } from './versioned-cache';

/** The session cookie's name and flags, and the secret CSRF tokens are made with. */
export interface SessionSettings {
  cookieName: string;
  secureCookie: boolean;
  secret: string;
}

/** The session cookie's name and flags: `__Host-` and Secure unless cookies are insecure (plain http). */
export function sessionSettings(insecureCookies: boolean, secret: string): SessionSettings {
  return {
    cookieName: insecureCookies ? 'pra_session' : '__Host-pra_session',
    secureCookie: !insecureCookies,
    secret,
  };
}

/** What every route and use case may reach: settings and outside parts, built once at boot. */
export interface AppContext {
  config: Config;
  db: Db;
  /**
   * Where long work reads and writes (the audit export, background jobs): a small pool of its own
   * on PostgreSQL, so that it never waits for, nor holds, a connection of the requests' pool; the
   * embedded database has one connection, so it is `db` there.
   */
  longWorkDb: Db;
  /**
   * PostgreSQL: exports read in worker threads of their own (platform/export-workers.ts); absent
   * on the embedded database, which only the main thread can reach.
   */
  exportWorkers?: ExportWorkers;
  dbKind: DbKind;
  /** The PostgreSQL pool's load (null for the embedded database), for load shedding. */
  poolStats(): PoolStats | null;
  session: SessionSettings;
  /** Signing keys: the service provider's, and the built-in IdP's when it is on. */
  keys: { sp: KeyPair; idp: KeyPair | null };
  /** The identity provider the portal trusts: the built-in one or the hospital's. */
  idp: IdpDescription;
  /** Encrypts secrets stored in the database (MFA seeds). */
  encryptor: Encryptor;
  /** Answers whether mail can currently be delivered, in words for the service check. */
  mailStatus(): Promise<{ ok: boolean; text: string }>;
  /** The one clock every time-based decision reads (platform/clock.ts). */
  clock: Clock;
  /** Where vendors' accounts live and sign in: the built-in store or the hospital's directory. */
  identityStore: IdentityStore;
  /** Manage Users' counts, kept while nothing they count changes (store/vendor-counts.ts). */
  vendorCounts: VersionedCache<number>;
  /**
   * BRMs' counts of their organizations' vendors, read one statement at a time: those asked while
   * one is read are read together next (store/vendor-counts.ts).
   */
  organizationSetCounts: BusyBatcher<readonly string[], Versioned<number>>;
}
