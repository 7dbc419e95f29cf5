import { ensureWritableDataDir } from './platform/data-dir';
import { resolve } from 'node:path';
import type { Config } from './config';
import { sessionSettings, type AppContext } from './platform/app-context';
import { OffsetClock, systemClock, type Clock } from './platform/clock';
import { readClockOffset } from './store/settings';
import type { KeyPair } from './platform/keys';
import type { DatabaseHandle, DatabaseTimeouts } from './platform/db';
import { openMigratedDatabase, type StartupLog } from './platform/db-startup';
import { createEncryptor } from './platform/encryption';
import { builtinIdpDescription, loadIdpMetadata, type IdpDescription } from './platform/idp-metadata';
import { observeSpCertificate } from './platform/metrics';
import { certificateExpiry, expiryWarning, readSpKeyFiles } from './platform/sp-certificate';
import { sharedKeyPair } from './identity/shared-keys';
import { createMailer, type Mailer } from './platform/mailer';
import { loadOrCreateSecret } from './platform/secrets';

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
}

/** The app's context from its parts; the IdP is the built-in one or read from IDP_METADATA. */
export async function createAppContext(parts: ContextParts): Promise<AppContext> {
  const { config, database, keys } = parts;
  return {
    config,
    db: database.db,
    dbKind: database.kind,
    poolStats: () => database.poolStats(),
    session: sessionSettings(config.insecureCookies, parts.sessionSecret),
    keys,
    idp: keys.idp
      ? builtinIdpDescription(config.publicUrl, keys.idp)
      : (parts.idp ?? (await loadIdpMetadata(config.IDP_METADATA ?? ''))),
    encryptor: createEncryptor(parts.encryptionKey),
    mailStatus: parts.mailStatus,
    clock: parts.clock ?? systemClock,
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
 * A wrong one stops the start naming its variable.
 */
export async function readConfiguredFiles(
  config: Config,
  now: Date,
): Promise<{ spKeys: KeyPair | null; idp: IdpDescription | undefined }> {
  const spKeys =
    config.SAML_SP_KEY_FILE && config.SAML_SP_CERT_FILE
      ? readSpKeyFiles(config.SAML_SP_KEY_FILE, config.SAML_SP_CERT_FILE, now)
      : null;
  const idp = config.idp === 'external' ? await loadIdpMetadata(config.IDP_METADATA ?? '') : undefined;
  return { spKeys, idp };
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
      timeouts: databaseTimeouts(config),
    },
    config.DATABASE_STARTUP_WAIT_SECONDS,
    log,
  );
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
  const mailer = createMailer(config.SMTP_URL, config.isStandalone);
  const ctx = await createAppContext({
    config,
    database,
    sessionSecret: secret,
    keys: { sp: spKeys, idp: idpKeys },
    encryptionKey,
    mailStatus: () => mailer.status(),
    ...(files.idp && { idp: files.idp }),
    // Standalone only (the settings refuse TEST_CLOCK in production): time moved by POST /dev/clock.
    ...(config.TEST_CLOCK &&
      config.isStandalone && { clock: new OffsetClock(await readClockOffset(database.db)) }),
  });
  return {
    ctx,
    mailer,
    async close() {
      mailer.close();
      await database.close();
    },
  };
}
