import { z } from 'zod';
import { isLoopback } from './platform/loopback';
import { databaseTimeoutDefaults } from './platform/database-timeouts';

/**
 * Every setting of the portal, read from environment variables once at boot. Each entry's
 * description is its documentation: the README's configuration table is generated from it
 * (`npm run docs:config`) and a test keeps the two in step.
 */
/** A URL's parts, or null when it does not parse. */
function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** Whether the runtime knows the IANA time zone. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export { databaseTimeoutDefaults };

const settingsSchema = z.object({
  PRA_MODE: z
    .enum(['standalone', 'production'])
    .default('standalone')
    .describe(
      'standalone: embedded database, built-in IdP, dev mailbox and demo data; production: your PostgreSQL, SMTP relay and IdP',
    ),
  PORT: int(0, 65535).default(8080).describe('TCP port the portal listens on'),
  HOST: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Interface to listen on; default 127.0.0.1 in standalone (one machine only), 0.0.0.0 in production',
    ),
  PUBLIC_URL: z
    .url()
    .optional()
    .describe('Origin people reach the portal at (used in mails and SAML); default http://localhost:PORT'),
  DATA_DIR: z
    .string()
    .min(1)
    .default('./data')
    .describe('Folder for the embedded database and, in standalone mode, generated secrets'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .describe('PostgreSQL connection URL; when unset the embedded database in DATA_DIR is used'),
  DATABASE_POOL_SIZE: int(1, 200).default(10).describe('Connections per instance to PostgreSQL'),
  DATABASE_POOL_MIN: int(0, 200)
    .default(10)
    .describe(
      'Connections to PostgreSQL opened at start and kept open while idle (at most DATABASE_POOL_SIZE)',
    ),
  DATABASE_STATEMENT_TIMEOUT_MS: int(0, 600_000)
    .default(databaseTimeoutDefaults.statementMs)
    .describe(
      'PostgreSQL cancels a statement (or lock wait) running longer, and the request answers 503; 0: no limit',
    ),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: int(0, 600_000)
    .default(databaseTimeoutDefaults.idleInTransactionMs)
    .describe('PostgreSQL ends a connection left idle inside a transaction this long; 0: no limit'),
  DATABASE_CONNECTION_WAIT_MS: int(100, 60_000)
    .default(databaseTimeoutDefaults.connectionWaitMs)
    .describe('Longest wait for a pool connection before the request answers 503'),
  DATABASE_STARTUP_WAIT_SECONDS: int(0, 3600)
    .default(60)
    .describe('At start, how long to keep retrying an unreachable PostgreSQL before exiting'),
  SHED_MAX_EVENT_LOOP_DELAY_MS: int(0, 60_000)
    .default(200)
    .describe('Load shedding: past this event-loop lag new requests answer 503 with Retry-After; 0: off'),
  SHED_MAX_QUEUE_DELAY_MS: int(0, 600_000)
    .default(1000)
    .describe(
      'Load shedding: event-loop lag sheds only while a new request would wait longer than this here (the time its latest requests took, the time its waiting callers take to answer at its current rate, connections not read yet included, or the time since it last answered one while requests wait); then new connections are refused with 503 before their request is read; a host that starves the portal of CPU without a queue sheds nothing; past twice this for two 250 ms samples with at least 10 requests in flight, the queueing delay of the requests read sheds on its own, whatever the lag, until it has been back under this for as long as this; 0: lag alone sheds',
    ),
  SHED_MAX_POOL_WAITING: int(0, 100_000)
    .default(50)
    .describe(
      'Load shedding: with more callers than this waiting for a database connection, new requests answer 503; 0: off',
    ),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .refine((v) => Boolean(parseUrl(v)?.hostname), 'must name the relay: smtp://host:port')
    .optional()
    .describe('SMTP relay for outgoing mail; standalone mode also keeps every mail in the dev mailbox'),
  MAIL_FROM: z
    .string()
    .regex(
      /^([^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
      'must be an address (a@b) or a name and address (Name <a@b>)',
    )
    .default('PRA Portal <pra-portal@localhost>')
    .describe('Sender of the portal mails'),
  HOSPITAL_NAME: z.string().min(1).max(120).default('General Hospital').describe('Shown in pages and mails'),
  CREDENTIAL_VAULT_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('https://vault.example.org/')
    .describe("The credential-vault tool linked from vendors' welcome page"),
  PORTAL_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone, e.g. America/New_York')
    .default('America/New_York')
    .describe("The hospital's time zone: end dates, deadlines and the daily digest's 08:00"),
  INFOSEC_EMAIL: z
    .email()
    .optional()
    .describe("Information Security's shared mailbox (escalations); unset: every admin is mailed"),
  GOVERNANCE_SWEEP_MINUTES: int(1, 60)
    .default(15)
    .describe('How often the governance sweeper runs (ends access, sends notices and reminders)'),
  TEST_CLOCK: bool
    .optional()
    .describe(
      'Standalone only: a movable clock (POST /dev/clock) for trying governance; refused in production',
    ),
  SUPPORT_EMAIL: z.email().default('pra-support@hospital.example').describe('Contact address for vendors'),
  SESSION_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe(
      'Key (32+ chars) for CSRF tokens, shared by all instances; standalone generates one into DATA_DIR',
    ),
  SESSION_LIFETIME_MINUTES: int(1, 24 * 60)
    .default(30)
    .describe('Session lifetime, and each extension'),
  SESSION_MAX_EXTENSIONS: int(0, 100).default(3).describe('How many times a session may be extended'),
  ACTIVATION_CODE_TTL_DAYS: int(1, 365).default(14).describe('How long an activation code stays valid'),
  RESET_CODE_TTL_MINUTES: int(1, 24 * 60)
    .default(30)
    .describe('How long a password-reset code stays valid'),
  PUSH_TIMEOUT_SECONDS: int(1, 300)
    .default(60)
    .describe('How long a push (sign-in or password reset) waits for Approve or Deny on the authenticator'),
  PASSWORD_BLOCKED_WORDS: list
    .default(['password'])
    .describe('Comma-separated words no password may contain (the hospital name is always added)'),
  IIQ_MAINTENANCE: bool
    .default(false)
    .describe('true puts account management into maintenance: account-changing calls answer 503'),
  IDENTITY_STORE: z
    .enum(['builtin', 'ldap'])
    .default('builtin')
    .describe(
      "Where vendor accounts live: builtin (the portal's database and built-in IdP) or ldap (the hospital's directory, written by every account operation)",
    ),
  LDAP_PROFILE: z
    .enum(['openldap', 'active-directory'])
    .default('openldap')
    .describe(
      "The directory's dialect: openldap (uid, inetOrgPerson, ppolicy) or active-directory (sAMAccountName, unicodePwd, userAccountControl)",
    ),
  LDAP_URL: z
    .string()
    .regex(/^ldaps?:\/\/[^/\s]+\/?$/, 'must be ldap://host:port or ldaps://host:port')
    .optional()
    .describe('The directory (IDENTITY_STORE=ldap): ldaps://host:636, or ldap://host:389 with LDAP_STARTTLS'),
  LDAP_STARTTLS: bool.default(false).describe('Upgrade an ldap:// connection with StartTLS before binding'),
  LDAP_CA_FILE: z
    .string()
    .min(1)
    .optional()
    .describe("PEM file of the CA(s) the directory's certificate is checked against (LDAPS or StartTLS)"),
  LDAP_BIND_DN: z.string().min(1).optional().describe("The portal's service account in the directory"),
  LDAP_BIND_PASSWORD_FILE: z
    .string()
    .min(1)
    .optional()
    .describe("A file holding the service account's password (read at start; never an environment value)"),
  LDAP_VENDORS_DN: z.string().min(1).optional().describe("The OU vendors' accounts are created in"),
  LDAP_GROUPS_DN: z
    .string()
    .min(1)
    .optional()
    .describe("The OU the organizations' groups (PRA - Vendor Access - {org} - BR) are created in"),
  LDAP_TERMINATED_DN: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Where a terminated vendor's account is moved to; unset: it stays, disabled and without groups",
    ),
  LDAP_TIMEOUT_MS: int(100, 60_000)
    .default(5_000)
    .describe('Longest wait for the directory: connecting, and each operation'),
  LDAP_HEALTH_CACHE_SECONDS: int(1, 300)
    .default(5)
    .describe("How long the directory's health (a bind and a base read) is trusted before asking again"),
  DIRECTORY_RECONCILE_HOURS: int(0, 24 * 30)
    .default(24)
    .describe('How often the directory is compared with the portal (drift report and gauge); 0: never'),
  AUDIT_RETENTION_DAYS: int(1, 100_000)
    .optional()
    .describe(
      'Audit events older than this many days may be deleted with `admin audit-purge`; unset keeps them forever',
    ),
  CLIENT_LOG_PER_MINUTE: int(1, 10_000)
    .default(30)
    .describe('Client-log messages accepted per client address per minute'),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(false|\d{1,2}|[0-9a-fA-F:.,/\s]+)$/,
      'must be false, a hop count, or a comma-separated list of proxy addresses/CIDRs',
    )
    .default('false')
    .transform((v): false | number | string[] =>
      v === 'false'
        ? false
        : /^\d+$/.test(v)
          ? Number(v)
          : v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
    )
    .describe(
      'Proxies whose X-Forwarded-For/-Proto to believe: false, the number of proxy hops in front, or their addresses/CIDRs (never "all": clients could then choose their own address)',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('Log level'),
  METRICS_PORT: z
    .string()
    .regex(/^(off|\d{1,5})$/, 'must be a port number or off')
    .refine((v) => v === 'off' || Number(v) <= 65535, 'must be a port number or off')
    .optional()
    .describe(
      'Port of the separate Prometheus listener (GET /metrics, never on the public port); default 9464 in standalone, off in production; off turns it off',
    ),
  METRICS_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe(
      'Interface of the metrics listener (unauthenticated): loopback unless you name another, e.g. 0.0.0.0 behind a firewall for your monitoring network',
    ),
  SHUTDOWN_GRACE_SECONDS: int(1, 600)
    .default(10)
    .describe('How long shutdown waits for in-flight requests and workers'),
  SHUTDOWN_DRAIN_SECONDS: int(0, 300)
    .optional()
    .describe(
      'First part of the grace: answers say Connection: close and the health check 503, so a load balancer lets go; default a quarter of the grace (at most 5 s) in production, 0 in standalone',
    ),
  IDP: z
    .enum(['builtin', 'external'])
    .optional()
    .describe(
      "Identity provider: builtin (the portal's own, with MFA) or external (your SAML IdP); default builtin in standalone, external in production",
    ),
  IDP_METADATA: z
    .string()
    .min(1)
    .optional()
    .describe(
      'External IdP metadata: a file path or an https:// URL (one EntityDescriptor, or a federation EntitiesDescriptor with IDP_ENTITY_ID)',
    ),
  IDP_ENTITY_ID: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe(
      'The IdP to trust when IDP_METADATA is a federation EntitiesDescriptor (its entityID); checked against a single EntityDescriptor too',
    ),
  IDP_METADATA_REFRESH_MINUTES: int(1, 10_080)
    .default(60)
    .describe(
      'How often IDP_METADATA given as a URL is fetched again (certificate roll-over); the last good copy is kept in the database',
    ),
  IDP_REQUIRED_AUTHN_CONTEXT: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe(
      'Comma-separated AuthnContextClassRef values (e.g. https://refeds.org/profile/mfa): asked for in every AuthnRequest and the only ones an assertion may carry; unset: any',
    ),
  SAML_PHISHING_RESISTANT_CLASSES: z
    .string()
    .min(1)
    .max(2000)
    .default('phr')
    .describe(
      'Comma-separated AuthnContextClassRef values that count as phishing-resistant sign-in (security key or passkey) for accounts whose organization requires it; a weaker assertion gets one step-up (ForceAuthn), then /auth-failure. Default: phr, what the built-in IdP writes; with the hospital IdP, the classes it writes for keys',
    ),
  IDP_ATTR_USERNAME: z
    .string()
    .min(1)
    .default('nameID')
    .describe('SAML attribute holding the username (nameID: the subject NameID)'),
  IDP_ATTR_GIVEN_NAME: z
    .string()
    .min(1)
    .default('givenName')
    .describe('SAML attribute holding the given name'),
  IDP_ATTR_FAMILY_NAME: z.string().min(1).default('sn').describe('SAML attribute holding the family name'),
  IDP_ATTR_EMAIL: z.string().min(1).default('mail').describe('SAML attribute holding the email address'),
  SAML_SP_KEY_FILE: z
    .string()
    .min(1)
    .optional()
    .describe('PEM private key the service provider signs AuthnRequests with; standalone generates one'),
  SAML_SP_CERT_FILE: z.string().min(1).optional().describe('PEM certificate matching SAML_SP_KEY_FILE'),
  DATA_ENCRYPTION_KEY: z
    .string()
    .min(32)
    .optional()
    .describe(
      'Key (32+ chars) encrypting MFA secrets and generated signing keys at rest; standalone generates one into DATA_DIR',
    ),
  SIGNIN_MAX_FAILURES: int(1, 100)
    .default(5)
    .describe('Failed sign-ins (password or passcode) before an account is locked for a while'),
  SIGNIN_LOCKOUT_MINUTES: int(1, 15)
    .default(5)
    .describe(
      'First lockout length; each further lockout within a day doubles it, never beyond 15 minutes (the owner is mailed)',
    ),
  SIGNIN_ADDRESS_MAX_FAILURES: int(1, 10_000)
    .default(20)
    .describe(
      'Failed sign-ins (any username, password or passcode) per client address per 15 minutes before that address is refused',
    ),
  DEMO_DATA: bool
    .optional()
    .describe(
      'Create the demo organizations and accounts on first start; default on in standalone on the embedded database, off on DATABASE_URL (PostgreSQL) and in production',
    ),
  DEMO_PASSWORD: z
    .string()
    .min(12)
    .max(128)
    .optional()
    .describe(
      'Password of every demo account; when unset a random one is generated and printed on first start',
    ),
});

export type Settings = z.infer<typeof settingsSchema>;

/** The validated settings plus the values derived from them. */
export interface Config extends Omit<Settings, 'HOST' | 'METRICS_PORT'> {
  /** HOST, or the mode's default: loopback in standalone, every interface in production. */
  HOST: string;
  publicUrl: string;
  isStandalone: boolean;
  demoData: boolean;
  idp: 'builtin' | 'external';
  /** IDP_REQUIRED_AUTHN_CONTEXT as a list (empty: any authentication context is accepted). */
  requiredAuthnContext: string[];
  /** SAML_PHISHING_RESISTANT_CLASSES as a list. */
  phishingResistantClasses: string[];
  /**
   * Whether MALLOC_ARENA_MAX is in the environment: glibc reads it as the process starts, the
   * portal only warns when it is missing (runtime.ts, docs/OPERATIONS.md "Memory"). Not a setting.
   */
  mallocArenaMaxSet: boolean;
  /**
   * NODE_OPTIONS as node read it at start: the portal looks there (and on node's command line)
   * for --max-semi-space-size, and only warns when it is missing (runtime.ts). Not a setting.
   */
  nodeOptions: string;
  /** Where the metrics listener listens; null: no metrics listener. */
  metrics: { port: number; host: string; byDefault: boolean } | null;
  /** Plain http on localhost: the session cookie cannot be Secure nor carry the __Host- prefix. */
  insecureCookies: boolean;
  /** How long a shutdown drains before the listener closes; always inside the grace. */
  shutdownDrainMs: number;
}

export class ConfigError extends Error {}

/**
 * The drain at shutdown. Production: long enough for a load balancer's health check to notice, well
 * inside the grace (a quarter of it, at most 5 s). Standalone has no balancer to tell: Ctrl-C stops
 * at once, and a start right after finds the port and the embedded database free. Never more than
 * half the grace: the requests in flight need the rest.
 */
export function shutdownDrainMs(
  graceSeconds: number,
  drainSeconds: number | undefined,
  isStandalone: boolean,
): number {
  const graceMs = graceSeconds * 1000;
  const byMode = isStandalone ? 0 : Math.min(5_000, graceMs / 4);
  const wanted = drainSeconds === undefined ? byMode : drainSeconds * 1000;
  return Math.min(wanted, graceMs / 2);
}

/** Prometheus's conventional port for an application's own exporter. */
export const DEFAULT_METRICS_PORT = 9464;

/** Production runs on the hospital's own database, relay, keys and secrets. */
export const productionRequired = [
  'DATABASE_URL',
  'SMTP_URL',
  'SESSION_SECRET',
  'PUBLIC_URL',
  'SAML_SP_KEY_FILE',
  'SAML_SP_CERT_FILE',
  'DATA_ENCRYPTION_KEY',
] as const;

/**
 * Who reads the settings: the server needs them all; the operators' CLI (`admin`) works on the
 * database alone, so production asks it for DATABASE_URL only (not the relay, keys or IdP).
 */
export type ConfigUse = 'server' | 'admin';

const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/**
 * What is wrong with settings that each look right alone: one line per problem, each naming its
 * variable. Production (for the server) refuses what would expose people on a network: plain
 * http, http-fetched IdP metadata, one key for two purposes.
 */
function settingProblems(settings: Settings, isStandalone: boolean, use: ConfigUse, idp: string): string[] {
  const problems: string[] = [];
  const problem = (name: string, text: string) => problems.push(`  ${name}: ${text}`);
  const production = !isStandalone;
  if (production) {
    const required = use === 'server' ? productionRequired : (['DATABASE_URL'] as const);
    for (const key of required) if (!settings[key]) problem(key, 'required in production mode');
  }
  if (use === 'admin') return problems;
  if (idp === 'external' && !settings.IDP_METADATA) problem('IDP_METADATA', 'required when IDP is external');
  const publicUrl = settings.PUBLIC_URL ? parseUrl(settings.PUBLIC_URL) : null;
  if (publicUrl) {
    if (!['http:', 'https:'].includes(publicUrl.protocol)) {
      problem('PUBLIC_URL', `must be an http:// or https:// URL, not ${publicUrl.protocol}`);
    } else if (
      (publicUrl.pathname !== '/' && publicUrl.pathname !== '') ||
      publicUrl.search ||
      publicUrl.hash ||
      publicUrl.username ||
      publicUrl.password
    ) {
      problem(
        'PUBLIC_URL',
        `must be an origin only (scheme, host and port, e.g. ${publicUrl.origin}): the portal is served at the root, not at ${publicUrl.pathname}${publicUrl.search}`,
      );
    } else if (production && publicUrl.protocol === 'http:' && !loopbackHosts.includes(publicUrl.hostname)) {
      problem(
        'PUBLIC_URL',
        'must be https:// in production: on plain http sessions and SAML responses cross the network readable (http:// is allowed on localhost only)',
      );
    }
  }
  if (production && settings.IDP_METADATA && /^http:\/\//i.test(settings.IDP_METADATA)) {
    problem(
      'IDP_METADATA',
      'must be an https:// URL or a file in production: metadata fetched over plain http can be altered on the way, and it names the certificates the portal trusts',
    );
  }
  if (settings.IDENTITY_STORE === 'ldap') problems.push(...directoryProblems(settings, production));
  if (settings.DATA_ENCRYPTION_KEY && settings.DATA_ENCRYPTION_KEY === settings.SESSION_SECRET) {
    problem('DATA_ENCRYPTION_KEY', 'must differ from SESSION_SECRET: one leaked value would give away both');
  }
  if (production && settings.TEST_CLOCK) problem('TEST_CLOCK', 'TEST_CLOCK is not allowed in production');
  if (production && settings.PORT === 0)
    problem('PORT', 'must be 1-65535 in production (0 picks a random port)');
  if (settings.METRICS_PORT !== undefined && settings.METRICS_PORT !== 'off') {
    if (Number(settings.METRICS_PORT) === settings.PORT && settings.PORT !== 0) {
      problem(
        'METRICS_PORT',
        `must differ from PORT (${settings.PORT}): the metrics are never on the public port`,
      );
    }
  }
  return problems;
}

const directoryRequired = [
  'LDAP_URL',
  'LDAP_BIND_DN',
  'LDAP_BIND_PASSWORD_FILE',
  'LDAP_VENDORS_DN',
  'LDAP_GROUPS_DN',
] as const;

/** IDENTITY_STORE=ldap: the directory's settings, each problem naming its variable. */
function directoryProblems(settings: Settings, production: boolean): string[] {
  const problems: string[] = [];
  const problem = (name: string, text: string) => problems.push(`  ${name}: ${text}`);
  for (const key of directoryRequired)
    if (!settings[key]) problem(key, 'required when IDENTITY_STORE is ldap');
  const url = settings.LDAP_URL ? parseUrl(settings.LDAP_URL) : null;
  if (url?.protocol === 'ldap:' && !settings.LDAP_STARTTLS) {
    if (settings.LDAP_PROFILE === 'active-directory') {
      problem(
        'LDAP_URL',
        'must be ldaps:// (or set LDAP_STARTTLS=true): Active Directory sets passwords over TLS only',
      );
    } else if (production && !loopbackHosts.includes(url.hostname)) {
      problem(
        'LDAP_URL',
        'must be ldaps:// or use LDAP_STARTTLS=true in production: passwords would cross the network readable',
      );
    }
  }
  if (settings.LDAP_STARTTLS && url?.protocol === 'ldaps:') {
    problem('LDAP_STARTTLS', 'is for ldap:// URLs; ldaps:// is TLS already');
  }
  return problems;
}

/** Validates the environment; the error names each bad variable. */
export function loadConfig(env: Record<string, string | undefined>, use: ConfigUse = 'server'): Config {
  const known = Object.fromEntries(
    Object.keys(settingsSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = settingsSchema.safeParse(known);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const settings = parsed.data;
  const isStandalone = settings.PRA_MODE === 'standalone';
  const publicUrl = (settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`).replace(/\/$/, '');
  const idp = settings.IDP ?? (isStandalone ? 'builtin' : 'external');
  // Every problem is named at once, not one per restart.
  const problems = settingProblems(settings, isStandalone, use, idp);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const url = new URL(publicUrl);
  const { METRICS_PORT, ...rest } = settings;
  const metricsPort = METRICS_PORT ?? (isStandalone ? String(DEFAULT_METRICS_PORT) : 'off');
  return {
    ...rest,
    metrics:
      metricsPort === 'off'
        ? null
        : {
            port: Number(metricsPort),
            host: settings.METRICS_HOST,
            byDefault: METRICS_PORT === undefined,
          },
    HOST: settings.HOST ?? (isStandalone ? '127.0.0.1' : '0.0.0.0'),
    mallocArenaMaxSet: Boolean(env.MALLOC_ARENA_MAX),
    nodeOptions: env.NODE_OPTIONS ?? '',
    publicUrl,
    isStandalone,
    // A PostgreSQL database may be a real one: demo accounts go there only when asked for.
    demoData: settings.DEMO_DATA ?? (isStandalone && !settings.DATABASE_URL),
    idp,
    requiredAuthnContext: (settings.IDP_REQUIRED_AUTHN_CONTEXT ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean),
    phishingResistantClasses: settings.SAML_PHISHING_RESISTANT_CLASSES.split(',')
      .map((value) => value.trim())
      .filter(Boolean),
    insecureCookies: url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname),
    shutdownDrainMs: shutdownDrainMs(
      settings.SHUTDOWN_GRACE_SECONDS,
      settings.SHUTDOWN_DRAIN_SECONDS,
      isStandalone,
    ),
  };
}

/**
 * What standalone mode says at start when HOST opens it to the network: its dev mailbox, demo
 * accounts and generated secrets are meant for one person's machine. Null when there is nothing
 * to say.
 */
export function exposureWarning(config: Pick<Config, 'isStandalone' | 'HOST'>): string | null {
  if (!config.isStandalone || isLoopback(config.HOST)) return null;
  return [
    `WARNING: standalone mode is listening on ${config.HOST}, reachable from other machines.`,
    '  Standalone mode is for one machine: its demo accounts share one password and its built-in',
    '  identity provider is not hardened for a network. The dev mailbox still answers only this',
    '  machine. Unset HOST (or set HOST=127.0.0.1) unless you mean it; run PRA_MODE=production',
    '  for real use.',
  ].join('\n');
}

/**
 * What standalone mode says at start on DATABASE_URL without DEMO_DATA: it creates no demo data
 * there (a forgotten PRA_MODE must not put demo accounts into a real database). Null otherwise.
 */
export function demoDataNotice(
  config: Pick<Config, 'isStandalone' | 'DATABASE_URL' | 'DEMO_DATA'>,
): string | null {
  if (!config.isStandalone || !config.DATABASE_URL || config.DEMO_DATA !== undefined) return null;
  return 'standalone mode on DATABASE_URL (PostgreSQL): no demo data is created; set DEMO_DATA=true to create it';
}

/** The one place that reads the process environment. */
export function loadConfigFromEnvironment(use: ConfigUse = 'server'): Config {
  return loadConfig(process.env, use);
}

/** Each setting's name, default as an environment variable would spell it (lists comma-joined), and meaning. */
function describedSettings(): { name: string; defaultValue: string | undefined; meaning: string }[] {
  return Object.entries(settingsSchema.shape).map(([name, schema]) => {
    const value = ((schema as z.ZodType).def as { defaultValue?: string | number | boolean | string[] })
      .defaultValue;
    return {
      name,
      defaultValue: value === undefined ? undefined : Array.isArray(value) ? value.join(',') : String(value),
      meaning: (schema as z.ZodType).description ?? '',
    };
  });
}

/** The README's configuration table, generated from the schema. */
export function configurationTable(): string {
  const rows = describedSettings().map(
    ({ name, defaultValue, meaning }) =>
      `| \`${name}\` | ${defaultValue === undefined ? '' : `\`${defaultValue}\``} | ${meaning} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/**
 * A value as an environment file spells it: bare when it is plain, else in double quotes (single
 * quotes when it holds a double quote), as systemd's EnvironmentFile and `node --env-file` read it.
 */
export function envFileValue(value: string): string {
  if (/^[\w./:,@%+=-]*$/.test(value)) return value;
  if (/[\\$`\n]/.test(value) || (value.includes('"') && value.includes("'"))) {
    throw new Error(`cannot write ${JSON.stringify(value)} into an environment file unambiguously`);
  }
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}

/**
 * .env.example, generated from the schema (`npm run docs:env`; a test keeps it in step): a
 * production instance's environment file. The settings production requires are uncommented and
 * empty (an instance refuses to start until they are set); every other setting is a commented line
 * with its default.
 */
export function envExample(): string {
  const required = new Set<string>([...productionRequired, 'IDP_METADATA']);
  const lines = [
    '# PRA Portal: the environment of a production instance (systemd EnvironmentFile=, node --env-file=).',
    '# Generated from the settings schema (apps/server/src/config.ts) by `npm run docs:env`: do not edit here.',
    '# Fill in the uncommented settings: production refuses to start while one is empty.',
    '# A commented line shows a default: uncomment it to change the setting. An empty value means unset.',
  ];
  for (const { name, defaultValue, meaning } of describedSettings()) {
    lines.push('', `# ${meaning}`);
    if (name === 'PRA_MODE') lines.push('PRA_MODE=production');
    else if (required.has(name)) {
      lines.push(
        name === 'IDP_METADATA'
          ? '# Required when IDP is external (the default in production).'
          : '# Required in production.',
        `${name}=`,
      );
    } else lines.push(`# ${name}=${defaultValue === undefined ? '' : envFileValue(defaultValue)}`);
  }
  return `${lines.join('\n')}\n`;
}
