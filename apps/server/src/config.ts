import { z } from 'zod';

/**
 * Every setting of the portal, read from environment variables once at boot. Each entry's
 * description is its documentation: the README's configuration table is generated from it
 * (`npm run docs:config`) and a test keeps the two in step.
 */
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

export const settingsSchema = z.object({
  PRA_MODE: z
    .enum(['standalone', 'production'])
    .default('standalone')
    .describe(
      'standalone: embedded database, built-in IdP, dev mailbox and demo data; production: your PostgreSQL, SMTP relay and IdP',
    ),
  PORT: int(0, 65535).default(8080).describe('TCP port the portal listens on'),
  HOST: z.string().min(1).default('0.0.0.0').describe('Interface to listen on'),
  PUBLIC_URL: z
    .url()
    .optional()
    .describe('Origin people reach the portal at (used in mails and SAML); default http://localhost:PORT'),
  DATA_DIR: z
    .string()
    .min(1)
    .default('./data')
    .describe('Folder for the embedded database, generated keys and certificates'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .describe('PostgreSQL connection URL; when unset the embedded database in DATA_DIR is used'),
  DATABASE_POOL_SIZE: int(1, 200).default(10).describe('Connections per instance to PostgreSQL'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .describe('SMTP relay for outgoing mail; standalone mode also keeps every mail in the dev mailbox'),
  MAIL_FROM: z
    .string()
    .min(3)
    .default('PRA Portal <pra-portal@localhost>')
    .describe('Sender of the portal mails'),
  HOSPITAL_NAME: z.string().min(1).max(120).default('General Hospital').describe('Shown in pages and mails'),
  CREDENTIAL_VAULT_URL: z
    .url()
    .default('https://vault.example.org/')
    .describe("The credential-vault tool linked from vendors' welcome page"),
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
  PASSWORD_BLOCKED_WORDS: list
    .default(['password'])
    .describe('Comma-separated words no password may contain (the hospital name is always added)'),
  IIQ_MAINTENANCE: bool
    .default(false)
    .describe('true puts account management into maintenance: account-changing calls answer 503'),
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
  SHUTDOWN_GRACE_SECONDS: int(1, 600)
    .default(10)
    .describe('How long shutdown waits for in-flight requests and workers'),
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
    .describe('External IdP metadata: a file path or an https:// URL'),
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
    .describe('Key (32+ chars) encrypting MFA secrets at rest; standalone generates one into DATA_DIR'),
  SIGNIN_MAX_FAILURES: int(1, 100)
    .default(5)
    .describe('Failed sign-ins (password or passcode) before an account is locked for a while'),
  SIGNIN_LOCKOUT_MINUTES: int(1, 24 * 60)
    .default(15)
    .describe('First lockout length; each further lockout doubles it'),
  DEMO_DATA: bool
    .optional()
    .describe(
      'Create the demo organizations and accounts on first start; default on in standalone, off in production',
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
export interface Config extends Settings {
  publicUrl: string;
  isStandalone: boolean;
  demoData: boolean;
  idp: 'builtin' | 'external';
  /** Plain http on localhost: the session cookie cannot be Secure nor carry the __Host- prefix. */
  insecureCookies: boolean;
}

export class ConfigError extends Error {}

/** Production runs on the hospital's own database, relay, keys and secrets. */
const productionRequired = [
  'DATABASE_URL',
  'SMTP_URL',
  'SESSION_SECRET',
  'PUBLIC_URL',
  'SAML_SP_KEY_FILE',
  'SAML_SP_CERT_FILE',
  'DATA_ENCRYPTION_KEY',
] as const;

/** Validates the environment; the error names each bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
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
  // Every missing setting is named at once, not one per restart.
  const problems = [
    ...(isStandalone ? [] : productionRequired.filter((key) => !settings[key])).map(
      (key) => `  ${key}: required in production mode`,
    ),
    ...(idp === 'external' && !settings.IDP_METADATA
      ? ['  IDP_METADATA: required when IDP is external']
      : []),
  ];
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const url = new URL(publicUrl);
  return {
    ...settings,
    publicUrl,
    isStandalone,
    demoData: settings.DEMO_DATA ?? isStandalone,
    idp,
    insecureCookies: url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname),
  };
}

/** The one place that reads the process environment. */
export function loadConfigFromEnvironment(): Config {
  return loadConfig(process.env);
}

/** The README's configuration table, generated from the schema. */
export function configurationTable(): string {
  const rows = Object.entries(settingsSchema.shape).map(([name, schema]) => {
    const def = (schema as z.ZodType).def as { defaultValue?: unknown };
    const value = def.defaultValue;
    const shown = value === undefined ? '' : `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
    return `| \`${name}\` | ${shown} | ${(schema as z.ZodType).description ?? ''} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
