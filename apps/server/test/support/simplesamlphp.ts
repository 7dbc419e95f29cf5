// A real SAML IdP nobody here wrote: Debian's SimpleSAMLphp, served by php-fpm (a pool on a unix
// socket) behind nginx, both run unprivileged-style from a temporary folder with their own
// configuration (SIMPLESAMLPHP_CONFIG_DIR), never as the system services. The portal's SP
// metadata is handed to it as an XML metadata source; its IdP metadata is fetched for the portal.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { makeCertificate, NGINX, startNginx } from './nginx';

export const SIMPLESAMLPHP_DIR = '/usr/share/simplesamlphp';
export const PHP_FPM = '/usr/sbin/php-fpm8.2';

/** What the harness needs on the machine (apt: simplesamlphp php-fpm nginx); empty when all is there. */
export function simpleSamlPhpMissing(): string[] {
  return [
    existsSync(join(SIMPLESAMLPHP_DIR, 'www', 'saml2', 'idp', 'SSOService.php')) ? null : 'simplesamlphp',
    existsSync(PHP_FPM) ? null : `php-fpm (${PHP_FPM})`,
    existsSync(NGINX) ? null : 'nginx',
  ].filter((name): name is string => name !== null);
}

/** A user of the `exampleauth:UserPass` source, with the attributes the IdP releases. */
export interface ExampleUser {
  username: string;
  password: string;
  attributes: Record<string, string[]>;
}

/** The LDAP server an `ldap:LDAP` source checks passwords against (the directory's vendors). */
export interface LdapSource {
  url: string;
  /** Where to search for the user, e.g. ou=vendors,dc=hospital,dc=example. */
  baseDn: string | string[];
  /** The attribute holding the username (uid for OpenLDAP, sAMAccountName for AD). */
  usernameAttribute: string;
  /** The account that searches (none: anonymous search). */
  searchDn?: string;
  searchPassword?: string;
}

export interface SimpleSamlPhpOptions {
  /** Who can sign in: `exampleauth:UserPass` users, or an `ldap:LDAP` directory. */
  auth: { users: ExampleUser[] } | { ldap: LdapSource };
  /**
   * Users (by username) whose sign-in the IdP reports with this AuthnContextClassRef (e.g. the
   * REFEDS MFA profile), standing in for an IdP's second factor; the others get
   * PasswordProtectedTransport, SimpleSAMLphp's default for a password over http(s).
   */
  strongContext?: { classRef: string; usernames: string[] };
}

export interface SimpleSamlPhp {
  /** http://localhost:PORT: same site as a portal on localhost, as in a hospital's one domain. */
  origin: string;
  entityId: string;
  metadataUrl: string;
  dir: string;
  /** Hands the IdP the SP's metadata XML (read at every request: no restart). */
  trustServiceProvider(spMetadataXml: string): void;
  /** The IdP's metadata XML, as the portal's IDP_METADATA. */
  idpMetadata(): Promise<string>;
  /** Everything php-fpm and nginx wrote to their logs (for a failing test's message). */
  logs(): string;
  stop(): Promise<void>;
}

/** A PHP single-quoted string literal. */
const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const phpArray = (values: string[]) => `[${values.map(php).join(', ')}]`;

function authSource(options: SimpleSamlPhpOptions): string {
  if ('users' in options.auth) {
    const users = options.auth.users
      .map(
        (user) =>
          `    ${php(`${user.username}:${user.password}`)} => [${Object.entries(user.attributes)
            .map(([name, values]) => `${php(name)} => ${phpArray(values)}`)
            .join(', ')}],`,
      )
      .join('\n');
    return `$config['portal-users'] = [\n    'exampleauth:UserPass',\n${users}\n];\n`;
  }
  const ldap = options.auth.ldap;
  const base = Array.isArray(ldap.baseDn) ? ldap.baseDn : [ldap.baseDn];
  return `$config['portal-users'] = [
    'ldap:LDAP',
    'hostname' => ${php(ldap.url)},
    'enable_tls' => false,
    'timeout' => 5,
    'attributes' => ['uid', 'sAMAccountName', 'givenName', 'sn', 'mail', 'cn'],
    'search.enable' => true,
    'search.base' => ${phpArray(base)},
    'search.attributes' => ${phpArray([ldap.usernameAttribute])},
    'search.username' => ${ldap.searchDn ? php(ldap.searchDn) : 'null'},
    'search.password' => ${ldap.searchPassword ? php(ldap.searchPassword) : 'null'},
];
`;
}

/** The hosted IdP: signs responses, assertions and logout messages; checks the SP's signatures. */
function hostedIdp(options: SimpleSamlPhpOptions): string {
  const strong = options.strongContext;
  const context = strong
    ? `        // The IdP's second factor, in this test IdP: chosen users are reported as MFA.
        10 => ['class' => 'core:PHP', 'code' => ${php(
          `if (in_array($attributes['uid'][0] ?? '', ${phpArray(strong.usernames)}, true)) { $state['saml:AuthnContextClassRef'] = ${php(strong.classRef)}; }`,
        )}],\n`
    : '';
  return `<?php
$metadata['__DYNAMIC:1__'] = [
    'host' => '__DEFAULT__',
    'privatekey' => 'idp.key',
    'certificate' => 'idp.crt',
    'auth' => 'portal-users',
    'signature.algorithm' => 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    'sign.logout' => true,
    'redirect.sign' => true,
    'validate.authnrequest' => true,
    'validate.logout' => true,
    'saml20.sign.response' => true,
    'saml20.sign.assertion' => true,
    'NameIDFormat' => 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    'simplesaml.nameidattribute' => 'uid',
    'attributes.NameFormat' => 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
    'authproc' => [
${context}    ],
];
`;
}

function config(dir: string, origin: string): string {
  return `<?php
$config = [
    'baseurlpath' => ${php(`${origin}/simplesaml/`)},
    'certdir' => ${php(join(dir, 'cert'))},
    'loggingdir' => ${php(join(dir, 'log'))},
    'datadir' => ${php(join(dir, 'data'))},
    'tempdir' => ${php(join(dir, 'tmp'))},
    'metadatadir' => ${php(join(dir, 'metadata'))},
    'technicalcontact_name' => 'PRA Portal tests',
    'technicalcontact_email' => 'na@example.org',
    'timezone' => 'UTC',
    'secretsalt' => ${php(`test-salt-${Date.now()}-${Math.random()}`)},
    'auth.adminpassword' => ${php(`admin-${Math.random()}`)},
    'admin.protectindexpage' => true,
    'admin.protectmetadata' => false,
    'debug' => ['saml' => false, 'backtraces' => true, 'validatexml' => false],
    'showerrors' => true,
    'errorreporting' => false,
    'logging.level' => SimpleSAML\\Logger::NOTICE,
    'logging.handler' => 'file',
    'logging.logfile' => 'simplesamlphp.log',
    // ReturnTo addresses on localhost (the portal), whatever its port.
    'trusted.url.domains' => ['localhost(:[0-9]+)?'],
    'trusted.url.regex' => true,
    'enable.saml20-idp' => true,
    'enable.shib13-idp' => false,
    'module.enable' => ['core' => true, 'saml' => true, 'exampleauth' => true, 'ldap' => true, 'admin' => true],
    'session.cookie.secure' => false,
    'session.cookie.samesite' => 'Lax',
    'session.phpsession.cookiename' => 'SimpleSAML',
    'session.phpsession.savepath' => ${php(join(dir, 'sessions'))},
    'store.type' => 'phpsession',
    'metadata.sources' => [
        ['type' => 'flatfile'],
        ['type' => 'xml', 'file' => ${php(join(dir, 'metadata', 'portal-sp.xml'))}],
    ],
    'metadata.sign.enable' => false,
    'language.available' => ['en'],
    'theme.use' => 'default',
];
`;
}

function phpFpmConf(dir: string, configDir: string): string {
  return `[global]
pid = ${dir}/php-fpm.pid
error_log = ${dir}/log/php-fpm.log
daemonize = no

[simplesamlphp]
listen = ${dir}/php-fpm.sock
listen.mode = 0666
pm = static
pm.max_children = 2
clear_env = yes
env[SIMPLESAMLPHP_CONFIG_DIR] = ${configDir}
catch_workers_output = yes
php_admin_value[session.save_path] = ${dir}/sessions
php_admin_value[error_log] = ${dir}/log/php-errors.log
php_admin_flag[log_errors] = on
php_admin_flag[display_errors] = off
`;
}

function nginxConf(dir: string, port: number): string {
  const www = join(SIMPLESAMLPHP_DIR, 'www');
  // The location layout of SimpleSAMLphp's own nginx example: PHP files with a PATH_INFO tail.
  return `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/log/nginx-error.log warn;
events { worker_connections 128; }
http {
  include /etc/nginx/mime.types;
  access_log ${dir}/log/nginx-access.log;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    location ^~ /simplesaml {
      alias ${www};
      location ~ ^(?<prefix>/simplesaml)(?<phpfile>.+?\\.php)(?<pathinfo>/.*)?$ {
        include /etc/nginx/fastcgi_params;
        fastcgi_pass unix:${dir}/php-fpm.sock;
        fastcgi_param SCRIPT_FILENAME ${www}$phpfile;
        fastcgi_param SCRIPT_NAME /simplesaml$phpfile;
        fastcgi_param PATH_INFO $pathinfo if_not_empty;
      }
    }
  }
}
`;
}

async function waitFor(url: string, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`SimpleSAMLphp did not answer ${url} (${last}):\n${describe()}`);
}

/** Starts SimpleSAMLphp (php-fpm + nginx) on a free port of localhost with its own folders. */
export async function startSimpleSamlPhp(options: SimpleSamlPhpOptions): Promise<SimpleSamlPhp> {
  const dir = mkdtempSync(join(tmpdir(), 'pra-simplesamlphp-'));
  for (const sub of ['config', 'cert', 'log', 'data', 'tmp', 'metadata', 'sessions']) {
    mkdirSync(join(dir, sub), { recursive: true });
  }
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const configDir = join(dir, 'config');
  writeFileSync(join(configDir, 'config.php'), config(dir, origin));
  writeFileSync(join(configDir, 'authsources.php'), `<?php\n$config = [];\n${authSource(options)}`);
  writeFileSync(join(dir, 'metadata', 'saml20-idp-hosted.php'), hostedIdp(options));
  // An SP metadata source that trusts nobody until the portal's metadata is handed over.
  writeFileSync(
    join(dir, 'metadata', 'portal-sp.xml'),
    '<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"/>',
  );
  makeCertificate(join(dir, 'cert'), 2);
  renameSync(join(dir, 'cert', 'key.pem'), join(dir, 'cert', 'idp.key'));
  renameSync(join(dir, 'cert', 'cert.pem'), join(dir, 'cert', 'idp.crt'));

  writeFileSync(join(dir, 'php-fpm.conf'), phpFpmConf(dir, configDir));
  const fpmArgs = ['--nodaemonize', '--fpm-config', join(dir, 'php-fpm.conf')];
  if (process.getuid?.() === 0) fpmArgs.push('--allow-to-run-as-root');
  const fpm: ChildProcess = spawn(PHP_FPM, fpmArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  const fpmOutput: string[] = [];
  fpm.stdout?.on('data', (chunk: Buffer) => fpmOutput.push(chunk.toString()));
  fpm.stderr?.on('data', (chunk: Buffer) => fpmOutput.push(chunk.toString()));
  const nginx = startNginx(dir, nginxConf(dir, port));

  const readLog = (name: string) => {
    const path = join(dir, 'log', name);
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  const logs = () =>
    [
      fpmOutput.join(''),
      nginx.output.join(''),
      readLog('php-fpm.log'),
      readLog('php-errors.log'),
      readLog('nginx-error.log'),
      readLog('simplesamlphp.log'),
    ].join('\n');
  const metadataUrl = `${origin}/simplesaml/saml2/idp/metadata.php`;
  const stop = async () => {
    for (const child of [nginx.child, fpm]) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(metadataUrl, 30_000, logs);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    origin,
    entityId: metadataUrl,
    metadataUrl,
    dir,
    trustServiceProvider(spMetadataXml) {
      writeFileSync(join(dir, 'metadata', 'portal-sp.xml'), spMetadataXml);
    },
    async idpMetadata() {
      const res = await fetch(metadataUrl);
      if (!res.ok) throw new Error(`SimpleSAMLphp metadata: HTTP ${res.status}`);
      return res.text();
    },
    logs,
    stop,
  };
}
