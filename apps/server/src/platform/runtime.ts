import { ensureWritableDataDir } from './data-dir';
import { resolve } from 'node:path';
import type { Config } from '../config';
import { sessionSettings, type AppContext } from './app-context';
import type { DatabaseHandle, DatabaseTimeouts } from './db';
import { openMigratedDatabase, type StartupLog } from './db-startup';
import { createEncryptor } from './encryption';
import { builtinIdpDescription, loadIdpMetadata } from './idp-metadata';
import { readKeyPair } from './keys';
import { sharedKeyPair } from '../identity/shared-keys';
import { createMailer, type Mailer } from './mailer';
import { loadOrCreateSecret } from './secrets';

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
      : await loadIdpMetadata(config.IDP_METADATA ?? ''),
    encryptor: createEncryptor(parts.encryptionKey),
    mailStatus: parts.mailStatus,
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

/** Opens the outside parts the config names and migrates the database: everything but HTTP. */
export async function openRuntime(config: Config, log: StartupLog): Promise<Runtime> {
  const dataDir = resolve(config.DATA_DIR);
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
  const spKeys =
    config.SAML_SP_KEY_FILE && config.SAML_SP_CERT_FILE
      ? readKeyPair(config.SAML_SP_KEY_FILE, config.SAML_SP_CERT_FILE)
      : await generatedKeys('saml-sp', 'PRA Portal service provider');
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
