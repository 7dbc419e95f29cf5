// Samba's Active Directory domain controller (Debian's `samba`), provisioned by the test into a
// temp folder with `samba-tool domain provision` and run in the foreground (never the system
// service), LDAP only: the vendors', groups' and terminated OUs, a service account with full
// control of those OUs only (delegated as a hospital's AD team would), and LDAPS with a CA made
// here for `localhost`. Samba's LDAP server has no port setting: it listens on 127.0.0.1:389 and
// :636, so one DC at a time on a machine, and those ports must be free.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SAMBA = '/usr/sbin/samba';
export const SAMBA_TOOL = '/usr/bin/samba-tool';

function open(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Why a Samba DC cannot run here (empty when it can). */
export async function sambaDcMissing(): Promise<string[]> {
  const missing: string[] = [];
  if (!existsSync(SAMBA) || !existsSync(SAMBA_TOOL)) missing.push('samba (apt-get install -y samba)');
  if (process.getuid?.() !== 0) missing.push('root (Samba binds the fixed LDAP ports 389 and 636)');
  if ((await open(389)) || (await open(636))) missing.push('free ports 127.0.0.1:389 and :636');
  return missing;
}

export interface SambaDc {
  url: string;
  caFile: string;
  baseDn: string;
  vendorsDn: string;
  groupsDn: string;
  terminatedDn: string;
  adminDn: string;
  adminPassword: string;
  /** The portal's settings for this DC (LDAP_PROFILE=active-directory, LDAPS). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startSambaDc(): Promise<SambaDc> {
  const dir = mkdtempSync(join(tmpdir(), 'pra-samba-'));
  const baseDn = 'DC=pra,DC=test';
  // Samba's default policy wants three character classes; these have four.
  const adminPassword = `Adm-${randomBytes(9).toString('hex')}-9!`;
  const bindPassword = `Svc-${randomBytes(9).toString('hex')}-7!`;
  const conf = join(dir, 'etc', 'smb.conf');
  const tool = (args: string[]) =>
    execFileSync(SAMBA_TOOL, [...args, '-s', conf], {
      cwd: dir,
      stdio: 'pipe',
      encoding: 'utf8',
      timeout: 120_000,
    });

  // LDAPS: a CA and a server certificate for localhost, made here.
  const tls = join(dir, 'tls');
  mkdirSync(tls);
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: tls, stdio: 'pipe' });
  openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=PRA test CA',
  ]);
  openssl([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'key.pem',
    '-out',
    'req.csr',
    '-subj',
    '/CN=localhost',
  ]);
  writeFileSync(join(tls, 'ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl([
    'x509',
    '-req',
    '-in',
    'req.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'cert.pem',
    '-days',
    '2',
    '-extfile',
    'ext',
  ]);

  execFileSync(
    SAMBA_TOOL,
    [
      'domain',
      'provision',
      '--realm=PRA.TEST',
      '--domain=PRA',
      '--server-role=dc',
      '--dns-backend=NONE',
      `--adminpass=${adminPassword}`,
      `--targetdir=${dir}`,
      '--option=interfaces=127.0.0.1',
      '--option=bind interfaces only=yes',
      '--option=server services=ldap',
      `--option=log file=${join(dir, 'log.%m')}`,
      '--option=tls enabled=yes',
      `--option=tls keyfile=${join(tls, 'key.pem')}`,
      `--option=tls certfile=${join(tls, 'cert.pem')}`,
      `--option=tls cafile=${join(tls, 'ca.pem')}`,
    ],
    { cwd: dir, stdio: 'pipe', timeout: 180_000 },
  );
  const vendorsDn = `OU=Vendors,${baseDn}`;
  const groupsDn = `OU=PRA Groups,${baseDn}`;
  const terminatedDn = `OU=Terminated,${baseDn}`;
  for (const ou of [vendorsDn, groupsDn, terminatedDn]) tool(['ou', 'add', ou]);
  // The portal's service account: an ordinary user given full control of the three OUs only.
  tool(['user', 'add', 'pra-portal', bindPassword, '--userou=CN=Users']);
  const sid = /S-1-5-21-[\d-]+/.exec(tool(['user', 'show', 'pra-portal', '--attributes=objectSid']))?.[0];
  if (!sid) throw new Error('samba-tool did not show the service account’s SID');
  for (const ou of [vendorsDn, groupsDn, terminatedDn]) {
    tool(['dsacl', 'set', `--objectdn=${ou}`, `--sddl=(A;CI;GA;;;${sid})`]);
  }
  const passwordFile = join(dir, 'bind-password');
  writeFileSync(passwordFile, `${bindPassword}\n`, { mode: 0o600 });

  const output: string[] = [];
  const child: ChildProcess = spawn(SAMBA, ['-i', '-s', conf, '--debug-stdout', '-d', '1'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
  const deadline = Date.now() + 60_000;
  while (!(await open(636))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`samba did not start: ${output.join('').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const env = {
    IDENTITY_STORE: 'ldap',
    LDAP_PROFILE: 'active-directory',
    LDAP_URL: 'ldaps://localhost:636',
    LDAP_CA_FILE: join(tls, 'ca.pem'),
    LDAP_BIND_DN: `CN=pra-portal,CN=Users,${baseDn}`,
    LDAP_BIND_PASSWORD_FILE: passwordFile,
    LDAP_VENDORS_DN: vendorsDn,
    LDAP_GROUPS_DN: groupsDn,
    LDAP_TERMINATED_DN: terminatedDn,
  };
  return {
    url: env.LDAP_URL,
    caFile: env.LDAP_CA_FILE,
    baseDn,
    vendorsDn,
    groupsDn,
    terminatedDn,
    adminDn: `CN=Administrator,CN=Users,${baseDn}`,
    adminPassword,
    env,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}
