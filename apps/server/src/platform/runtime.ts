import { resolve } from 'node:path';
import type { Config } from '../config';
import type { AppContext } from '../http/context';
import { sessionSettings } from '../http/session';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db';
import { createEncryptor } from './encryption';
import { builtinIdpDescription, loadIdpMetadata } from './idp-metadata';
import { loadOrCreateKeyPair, readKeyPair } from './keys';
import { createMailer, type Mailer } from './mailer';
import { loadOrCreateSecret } from './secrets';

export interface Runtime {
  ctx: AppContext;
  mailer: Mailer;
  /** The pg pool's counters for the metrics; null on the embedded database. */
  pool: DatabaseHandle['pool'];
  close(): Promise<void>;
}

export interface ContextParts {
  config: Config;
  database: Pick<DatabaseHandle, 'db' | 'kind'>;
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
    session: sessionSettings(config.insecureCookies, parts.sessionSecret),
    keys,
    idp: keys.idp
      ? builtinIdpDescription(config.publicUrl, keys.idp)
      : await loadIdpMetadata(config.IDP_METADATA ?? ''),
    encryptor: createEncryptor(parts.encryptionKey),
    mailStatus: parts.mailStatus,
  };
}

/** Opens the outside parts the config names and migrates the database: everything but HTTP. */
export async function openRuntime(config: Config): Promise<Runtime> {
  const dataDir = resolve(config.DATA_DIR);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : resolve(dataDir, 'db'),
    poolSize: config.DATABASE_POOL_SIZE,
  });
  await migrateToLatest(database.db);
  const secret = config.SESSION_SECRET ?? loadOrCreateSecret(dataDir, 'session-secret');
  const spKeys =
    config.SAML_SP_KEY_FILE && config.SAML_SP_CERT_FILE
      ? readKeyPair(config.SAML_SP_KEY_FILE, config.SAML_SP_CERT_FILE)
      : await loadOrCreateKeyPair(dataDir, 'saml-sp', 'PRA Portal service provider');
  const idpKeys =
    config.idp === 'builtin'
      ? await loadOrCreateKeyPair(dataDir, 'saml-idp', 'PRA Portal identity provider')
      : null;
  const mailer = createMailer(config.SMTP_URL, config.isStandalone);
  const ctx = await createAppContext({
    config,
    database,
    sessionSecret: secret,
    keys: { sp: spKeys, idp: idpKeys },
    encryptionKey: config.DATA_ENCRYPTION_KEY ?? loadOrCreateSecret(dataDir, 'data-encryption-key'),
    mailStatus: () => mailer.status(),
  });
  return {
    ctx,
    mailer,
    pool: database.pool,
    async close() {
      mailer.close();
      await database.close();
    },
  };
}
