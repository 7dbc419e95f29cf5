import { ensureWritableDataDir } from './platform/data-dir';
import { resolve } from 'node:path';
import type { Config } from './config';
import { sessionSettings, type AppContext } from './platform/app-context';
import { OffsetClock, systemClock, type Clock } from './platform/clock';
import { readClockOffset } from './store/settings';
import type { KeyPair } from './platform/keys';
import { openDatabase, type DatabaseHandle, type DatabaseTimeouts, type Db } from './platform/db';
import { openMigratedDatabase, type StartupLog } from './platform/db-startup';
import { createEncryptor } from './platform/encryption';
import { VersionedCache } from './platform/versioned-cache';
import { organizationSetCounts } from './features/manage-users/list-users';
import {
  builtinIdpDescription,
  isMetadataUrl,
  loadIdpMetadata,
  readIdpMetadata,
  type IdpDescription,
  type LoadedMetadata,
} from './platform/idp-metadata';
import { startupIdp } from './identity/idp-metadata-refresh';
import { ConfigError } from './config';
import { observeSpCertificate } from './platform/metrics';
import { certificateExpiry, expiryWarning, readSpKeyFiles } from './platform/sp-certificate';
import { sharedKeyPair } from './identity/shared-keys';
import { createMailer, type Mailer } from './platform/mailer';
import { loadOrCreateSecret } from './platform/secrets';
import { createIdentityStore } from './platform/directory/create-store';
import type { IdentityStore } from './platform/directory/identity-store';
import { setDirectoryProvisioning } from './store/provisioning';
import { createExportWorkers, type ExportWorkers } from './platform/export-workers';

export interface Runtime {
  ctx: AppContext;
  mailer: Mailer;
  close(): Promise<void>;
}

export interface ContextParts {
  config: Config;
  database: Pick<DatabaseHandle, 'db' | 'kind' | 'poolStats'>;
  sessionSecret: string;
  /** The SP's key pair, and the built-in IdP's when it is on (null: an external IdP). */
  keys: AppContext['keys'];
  encryptionKey: string;
  mailStatus: AppContext['mailStatus'];
  /** The external IdP, when the start has already read IDP_METADATA. */
  idp?: IdpDescription;
  /** The clock (default: the system clock; tests pass a TestClock). */
  clock?: Clock;
  /** The identity store (default: the one IDENTITY_STORE names). */
  identityStore?: IdentityStore;
  /** Long work's own database handle (default: `database`'s). */
  longWorkDb?: Db;
  /** PostgreSQL: the export workers (platform/export-workers.ts). */
  exportWorkers?: ExportWorkers;
}

/** The app's context from its parts; the IdP is the built-in one or read from IDP_METADATA. */
export async function createAppContext(parts: ContextParts): Promise<AppContext> {
  const { config, database, keys } = parts;
  return {
    config,
    db: database.db,
    longWorkDb: parts.longWorkDb ?? database.db,
    ...(parts.exportWorkers && { exportWorkers: parts.exportWorkers }),
    dbKind: database.kind,
    poolStats: () => database.poolStats(),
    session: sessionSettings(config.insecureCookies, parts.sessionSecret),
    keys,
    idp: keys.idp
      ? builtinIdpDescription(config.publicUrl, keys.idp)
      : (parts.idp ?? (await loadIdpMetadata(config.IDP_METADATA ?? '', { entityId: config.IDP_ENTITY_ID }))),
    encryptor: createEncryptor(parts.encryptionKey),
    mailStatus: parts.mailStatus,
    clock: parts.clock ?? systemClock,
    identityStore: parts.identityStore ?? createIdentityStore(config),
    vendorCounts: new VersionedCache<number>(),
    organizationSetCounts: organizationSetCounts(database.db),
  };
}

/** The pool's limits from the settings. */
export function databaseTimeouts(config: Config): DatabaseTimeouts {
  return {
    statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    idleInTransactionMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    connectionWaitMs: config.DATABASE_CONNECTION_WAIT_MS,
  };
}

/**
 * The files and URLs the settings name, read and checked before the database is touched: the SP's
 * key pair (SAML_SP_KEY_FILE, SAML_SP_CERT_FILE) and the external IdP's metadata (IDP_METADATA).
 * A wrong one stops the start naming its variable, except metadata from a URL: its refusal is
 * returned, for the start to fall back on the last good copy in the database (startupIdp).
 */
export async function readConfiguredFiles(
  config: Config,
  now: Date,
): Promise<{ spKeys: KeyPair | null; idp: LoadedMetadata | ConfigError | undefined }> {
  const spKeys =
    config.SAML_SP_KEY_FILE && config.SAML_SP_CERT_FILE
      ? readSpKeyFiles(config.SAML_SP_KEY_FILE, config.SAML_SP_CERT_FILE, now)
      : null;
  if (config.idp !== 'external') return { spKeys, idp: undefined };
  const source = config.IDP_METADATA ?? '';
  try {
    return { spKeys, idp: await readIdpMetadata(source, { entityId: config.IDP_ENTITY_ID }) };
  } catch (error) {
    if (error instanceof ConfigError && isMetadataUrl(source)) return { spKeys, idp: error };
    throw error;
  }
}

/**
 * The SP certificate's end, as a metric (pra_saml_sp_certificate_expiry_timestamp_seconds) and,
 * within 30 days of it, a warning at every start.
 */
export function watchSpCertificate(certPem: string, source: string, now: Date, log: StartupLog): void {
  const expiresAt = certificateExpiry(certPem);
  observeSpCertificate(expiresAt);
  const warning = expiryWarning(source, expiresAt, now);
  if (warning) log.warn({ expiresAt: expiresAt.toISOString() }, warning);
}

/** The C library's version when it is glibc (from Node's diagnostic report), else undefined. */
export function glibcVersion(): string | undefined {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime;
}

/**
 * The start's warning when the process runs on glibc without MALLOC_ARENA_MAX: the export workers'
 * threads then keep arenas of their own that glibc hands little of back (docs/OPERATIONS.md,
 * "Memory"). Null on PGlite (its exports run on the main thread), elsewhere than glibc, or when set.
 */
export function mallocArenaWarning(
  arenaMaxSet: boolean,
  onPostgres: boolean,
  glibc: () => string | undefined = glibcVersion,
): string | null {
  // The C library is asked last: Node's report behind it is a few milliseconds of the start.
  if (!onPostgres || arenaMaxSet || glibc() === undefined) return null;
  return 'MALLOC_ARENA_MAX is unset: with glibc each audit export can leave 100 MB or more of the process\'s memory held; start the portal with MALLOC_ARENA_MAX=2 (docs/OPERATIONS.md, "Memory")';
}

/** The young generation's cap the shipped unit and image start node with (MB per semi-space). */
export const SEMI_SPACE_MB = 8;

/**
 * Whether node was started with its young generation capped (`--max-semi-space-size`), on its
 * command line or in NODE_OPTIONS. V8 reads it only as the process starts.
 */
export function youngGenerationCapped(execArgv: readonly string[], nodeOptions: string): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) =>
    /^--max[-_]semi[-_]space[-_]size(=|$)/.test(arg),
  );
}

/**
 * The start's warning when node runs on PostgreSQL with V8's young generation uncapped: under
 * load, and while an audit export runs, V8 grew it by tens of MB and kept them (its new space 32
 * → 52 MB in one export; docs/OPERATIONS.md, "Memory"). Null on PGlite or when capped.
 */
export function youngGenerationWarning(onPostgres: boolean, capped: boolean) {
  if (!onPostgres || capped) return null;
  return `node was started without --max-semi-space-size: under load V8's young generation grows by tens of MB and keeps them; start the portal with node --max-semi-space-size=${SEMI_SPACE_MB} (docs/OPERATIONS.md, "Memory")`;
}

/** Opens the outside parts the config names and migrates the database: everything but HTTP. */
export async function openRuntime(config: Config, log: StartupLog): Promise<Runtime> {
  const dataDir = resolve(config.DATA_DIR);
  const files = await readConfiguredFiles(config, new Date());
  if (config.isStandalone || !config.DATABASE_URL) ensureWritableDataDir(dataDir);
  const database = await openMigratedDatabase(
    {
      url: config.DATABASE_URL,
      dataDir: config.DATABASE_URL ? undefined : resolve(dataDir, 'db'),
      poolSize: config.DATABASE_POOL_SIZE,
      keepOpen: config.DATABASE_POOL_MIN,
      timeouts: databaseTimeouts(config),
    },
    config.DATABASE_STARTUP_WAIT_SECONDS,
    log,
  );
  // The provisioning triggers follow IDENTITY_STORE (migration 0012).
  await setDirectoryProvisioning(database.db, config.IDENTITY_STORE === 'ldap');
  const secret = config.SESSION_SECRET ?? loadOrCreateSecret(dataDir, 'session-secret');
  const encryptionKey = config.DATA_ENCRYPTION_KEY ?? loadOrCreateSecret(dataDir, 'data-encryption-key');
  // Generated keys live in the database, so that instances behind one load balancer share them.
  const generatedKeys = (name: string, commonName: string) =>
    sharedKeyPair(database.db, createEncryptor(encryptionKey), { name, commonName, dataDir });
  const spKeys = files.spKeys ?? (await generatedKeys('saml-sp', 'PRA Portal service provider'));
  watchSpCertificate(
    spKeys.certPem,
    files.spKeys ? 'SAML_SP_CERT_FILE' : 'the generated SP key pair (SAML_SP_KEY_FILE unset)',
    new Date(),
    log,
  );
  const idpKeys =
    config.idp === 'builtin' ? await generatedKeys('saml-idp', 'PRA Portal identity provider') : null;
  const idp = files.idp
    ? await startupIdp(
        database.db,
        config.IDP_METADATA ?? '',
        config.IDP_ENTITY_ID,
        files.idp,
        new Date(),
        log,
      )
    : undefined;
  const arenas = mallocArenaWarning(config.mallocArenaMaxSet, Boolean(config.DATABASE_URL));
  if (arenas) log.warn({}, arenas);
  const youngGeneration = youngGenerationWarning(
    Boolean(config.DATABASE_URL),
    youngGenerationCapped(process.execArgv, config.nodeOptions),
  );
  if (youngGeneration) log.warn({}, youngGeneration);
  const mailer = createMailer(config.SMTP_URL, config.isStandalone);
  // Long work's pool: one connection for the job worker, one for audit exports.
  const longWork = config.DATABASE_URL
    ? await openDatabase({
        url: config.DATABASE_URL,
        poolSize: 2,
        applicationName: 'pra-portal-long-work',
        timeouts: databaseTimeouts(config),
      })
    : null;
  const exportWorkers = config.DATABASE_URL
    ? createExportWorkers(config.DATABASE_URL, databaseTimeouts(config))
    : null;
  const ctx = await createAppContext({
    config,
    database,
    sessionSecret: secret,
    keys: { sp: spKeys, idp: idpKeys },
    encryptionKey,
    mailStatus: () => mailer.status(),
    ...(idp && { idp }),
    ...(longWork && { longWorkDb: longWork.db }),
    ...(exportWorkers && { exportWorkers }),
    // Standalone only (the settings refuse TEST_CLOCK in production): time moved by POST /dev/clock.
    ...(config.TEST_CLOCK &&
      config.isStandalone && { clock: new OffsetClock(await readClockOffset(database.db)) }),
  });
  return {
    ctx,
    mailer,
    async close() {
      mailer.close();
      await ctx.identityStore.close();
      await exportWorkers?.close();
      await longWork?.close();
      await database.close();
    },
  };
}
