// OpenLDAP for the tests: Debian's slapd run by the test itself (never the system service), on a
// free port, with its own slapd.conf and data folder in a temp dir. Other tests (the production
// journey with SimpleSAMLphp) reuse it: startSlapd() returns where it listens and how to bind.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export const SLAPD = '/usr/sbin/slapd';
export const SLAPADD = '/usr/sbin/slapadd';
export const slapdInstalled = existsSync(SLAPD) && existsSync(SLAPADD);

/** The password policy slapd applies to every account (slapo-ppolicy), when the overlay loads. */
export interface PasswordPolicy {
  /** Shortest password the directory accepts (pwdMinLength, with pwdCheckQuality 2). */
  minLength: number;
  /** How many earlier passwords may not be used again (pwdInHistory). */
  inHistory: number;
}

export interface SlapdOptions {
  suffix?: string;
  policy?: PasswordPolicy;
  /** People (employees) to load, e.g. a BRM who signs in at the IdP: uid, names, mail, password. */
  people?: { uid: string; givenName: string; sn: string; mail: string; password: string }[];
}

export interface Slapd {
  /** ldap://127.0.0.1:<port> */
  url: string;
  port: number;
  suffix: string;
  /** The portal's bind account (write access to the vendors', terminated and groups' OUs only). */
  bindDn: string;
  bindPassword: string;
  /** A file holding bindPassword (what LDAP_BIND_PASSWORD_FILE names). */
  bindPasswordFile: string;
  /** The directory's administrator (rootdn): "by hand" edits in tests, never the portal. */
  adminDn: string;
  adminPassword: string;
  vendorsDn: string;
  groupsDn: string;
  terminatedDn: string;
  /** Where employees (e.g. BRMs) live. */
  peopleDn: string;
  /** Whether slapo-ppolicy loaded (the policy refusals and pwdAccountLockedTime work). */
  ppolicy: boolean;
  /** The settings a portal needs to use this directory (IDENTITY_STORE=ldap, openldap profile). */
  env: Record<string, string>;
  /** Stops slapd (the data stays, so start() brings the same directory back on the same port). */
  stop(): Promise<void>;
  /** Starts it again after stop() (an outage's end). */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections are still accepted by the kernel, nothing answers. */
  freeze(): Promise<void>;
  /** Lets a frozen slapd go on (SIGCONT). */
  thaw(): void;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** `{SSHA}` of a password, as slapd stores it (for the loaded people). */
export function sshaHash(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

const ppolicyModule = '/usr/lib/ldap/ppolicy.la';

function slapdConf(
  dir: string,
  o: { suffix: string; adminPassword: string; bindDn: string; ppolicy: boolean },
) {
  const s = o.suffix;
  return `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
${o.ppolicy ? 'moduleload ppolicy' : ''}
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
database mdb
suffix "${s}"
rootdn "cn=admin,${s}"
rootpw ${o.adminPassword}
directory ${dir}/data
maxsize 104857600
index objectClass eq
index uid eq
index member eq
${
  o.ppolicy
    ? `overlay ppolicy
ppolicy_default "cn=default,ou=policies,${s}"
ppolicy_hash_cleartext
ppolicy_use_lockout`
    : ''
}
access to attrs=userPassword
  by dn.exact="${o.bindDn}" write
  by anonymous auth
  by self write
  by * none
access to dn.subtree="ou=vendors,${s}"
  by dn.exact="${o.bindDn}" manage
  by * read
access to dn.subtree="ou=terminated,${s}"
  by dn.exact="${o.bindDn}" manage
  by * read
access to dn.subtree="ou=groups,${s}"
  by dn.exact="${o.bindDn}" write
  by * read
access to *
  by * read
`;
}

function seedLdif(o: {
  suffix: string;
  bindDn: string;
  bindPassword: string;
  ppolicy: boolean;
  policy: PasswordPolicy;
  people: NonNullable<SlapdOptions['people']>;
}): string {
  const s = o.suffix;
  const dc = /^dc=([^,]+)/.exec(s)?.[1] ?? 'example';
  const entries = [
    `dn: ${s}\nobjectClass: dcObject\nobjectClass: organization\ndc: ${dc}\no: ${dc}`,
    ...['vendors', 'groups', 'terminated', 'people', 'services', 'policies'].map(
      (ou) => `dn: ou=${ou},${s}\nobjectClass: organizationalUnit\nou: ${ou}`,
    ),
    `dn: ${o.bindDn}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: pra-portal\nuserPassword: ${sshaHash(o.bindPassword)}`,
    ...o.people.map(
      (p) =>
        `dn: uid=${p.uid},ou=people,${s}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.givenName} ${p.sn}\n` +
        `givenName: ${p.givenName}\nsn: ${p.sn}\nmail: ${p.mail}\nuserPassword: ${sshaHash(p.password)}`,
    ),
  ];
  if (o.ppolicy) {
    entries.push(
      `dn: cn=default,ou=policies,${s}\nobjectClass: person\nobjectClass: pwdPolicy\ncn: default\nsn: default\n` +
        `pwdAttribute: userPassword\npwdCheckQuality: 2\npwdMinLength: ${o.policy.minLength}\n` +
        `pwdInHistory: ${o.policy.inHistory}\npwdLockout: TRUE\npwdMaxFailure: 0\npwdAllowUserChange: TRUE`,
    );
  }
  return `${entries.join('\n\n')}\n`;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts slapd on a free port with the vendors', groups', terminated and people OUs, the portal's
 * bind account (`cn=pra-portal,ou=services,…`, least rights: write on those OUs only) and, when
 * Debian's ppolicy overlay is there, a default password policy.
 */
export async function startSlapd(options: SlapdOptions = {}): Promise<Slapd> {
  const suffix = options.suffix ?? 'dc=hospital,dc=example';
  const dir = mkdtempSync(join(tmpdir(), 'pra-slapd-'));
  mkdirSync(join(dir, 'data'));
  const adminPassword = randomBytes(12).toString('hex');
  const bindPassword = randomBytes(12).toString('hex');
  const bindDn = `cn=pra-portal,ou=services,${suffix}`;
  const ppolicy = existsSync(ppolicyModule);
  const confPath = join(dir, 'slapd.conf');
  writeFileSync(confPath, slapdConf(dir, { suffix, adminPassword, bindDn, ppolicy }));
  writeFileSync(
    join(dir, 'seed.ldif'),
    seedLdif({
      suffix,
      bindDn,
      bindPassword,
      ppolicy,
      policy: options.policy ?? { minLength: 8, inHistory: 5 },
      people: options.people ?? [],
    }),
  );
  execFileSync(SLAPADD, ['-f', confPath, '-l', join(dir, 'seed.ldif')], { stdio: 'pipe' });
  const bindPasswordFile = join(dir, 'bind-password');
  writeFileSync(bindPasswordFile, `${bindPassword}\n`, { mode: 0o600 });
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const output: string[] = [];

  const start = async () => {
    if (child) return;
    const started = spawn(SLAPD, ['-f', confPath, '-h', `${url}/`, '-d', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
    started.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await listening(port))) {
      if (started.exitCode !== null || Date.now() > deadline) {
        child = null;
        started.kill('SIGKILL');
        throw new Error(`slapd did not start on ${url}: ${output.join('').slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    // Whoever answered must be this slapd: one that found its port taken (by a process that got it
    // as a free port while slapd was stopped) exits at once, and a test would go on against another.
    await new Promise((r) => setTimeout(r, 100));
    if (started.exitCode !== null) {
      child = null;
      throw new Error(`slapd exited after ${url} answered: ${output.join('').slice(-2000)}`);
    }
  };
  const stop = async () => {
    const running = child;
    if (!running) return;
    child = null;
    if (running.exitCode === null) {
      const exited = new Promise((r) => running.once('exit', r));
      running.kill('SIGCONT'); // a frozen slapd handles no SIGTERM
      running.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (running.exitCode === null && running.signalCode === null) {
        running.kill('SIGKILL');
        await exited; // its port is free again only once it is gone
      }
    }
  };
  await start();
  const env = {
    IDENTITY_STORE: 'ldap',
    LDAP_PROFILE: 'openldap',
    LDAP_URL: url,
    LDAP_BIND_DN: bindDn,
    LDAP_BIND_PASSWORD_FILE: bindPasswordFile,
    LDAP_VENDORS_DN: `ou=vendors,${suffix}`,
    LDAP_GROUPS_DN: `ou=groups,${suffix}`,
    LDAP_TERMINATED_DN: `ou=terminated,${suffix}`,
  };
  return {
    url,
    port,
    suffix,
    bindDn,
    bindPassword,
    bindPasswordFile,
    adminDn: `cn=admin,${suffix}`,
    adminPassword,
    vendorsDn: env.LDAP_VENDORS_DN,
    groupsDn: env.LDAP_GROUPS_DN,
    terminatedDn: env.LDAP_TERMINATED_DN,
    peopleDn: `ou=people,${suffix}`,
    ppolicy,
    env,
    stop,
    start,
    async freeze() {
      // Stopped only once the kernel says so (state T in /proc/<pid>/stat), not when the signal is
      // sent: a test that freezes it and asks at once must not be answered by a running slapd.
      const running = child;
      if (!running?.pid || running.exitCode !== null)
        throw new Error(`slapd is not running: ${output.join('').slice(-2000)}`);
      running.kill('SIGSTOP');
      const deadline = Date.now() + 5_000;
      while (readFileSync(`/proc/${running.pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'T') {
        if (Date.now() > deadline) throw new Error(`slapd ${running.pid} did not stop on SIGSTOP`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    thaw: () => void child?.kill('SIGCONT'),
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
