// Two server processes sharing one PostgreSQL database, as behind a load balancer: a sign-in
// started on one finishes on the other, and a session made on one is valid, and ends, on both.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKeyPair } from '../src/platform/keys';
import { freePort } from './support/free-port';
import { authnRequestIdFromUrl, forgeResponse } from './support/saml-forge';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const DEMO_PASSWORD = 'Demo-Secret-2024!xyz';

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
  exit: Promise<number | null>;
}

function start(name: string, port: number, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, url: `http://127.0.0.1:${port}`, child, output, exit };
}

async function waitUntilUp(instance: Instance, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null) break;
    try {
      const res = await fetch(`${instance.url}/api/service_check`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${instance.name} did not come up:\n${instance.output.join('')}`);
}

/** The cookie `name` a response sets, as `name=value`; '' when it clears it. */
function sessionCookie(res: Response, name = 'pra_session'): string | undefined {
  const header = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!header) return undefined;
  const pair = header.split(';')[0] ?? '';
  return pair.endsWith('=') ? '' : pair;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server processes on one PostgreSQL database', () => {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const dbName = `pra_test_${randomBytes(6).toString('hex')}`;
  let dataDir: string;
  let a: Instance;
  let b: Instance;
  let publicUrl: string;

  async function admin(query: string): Promise<void> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'pipe' });
    await admin(`create database ${dbName}`);
    const dbUrl = new URL(adminUrl);
    dbUrl.pathname = `/${dbName}`;
    dataDir = mkdtempSync(join(tmpdir(), 'pra-two-instances-'));
    const [portA, portB] = [await freePort(), await freePort()];
    publicUrl = `http://localhost:${portA}`;
    const env = {
      PRA_MODE: 'standalone',
      DATABASE_URL: dbUrl.toString(),
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      DEMO_PASSWORD,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: publicUrl,
    };
    // A first, alone: it migrates, seeds and writes the shared keys and secrets; B then reads them.
    a = start('A', portA, env);
    await waitUntilUp(a);
    b = start('B', portB, env);
    await waitUntilUp(b);
  }, 60_000);

  afterAll(async () => {
    const codes = await Promise.all(
      [a, b].filter(Boolean).map(async (instance) => {
        if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
        return instance.exit;
      }),
    );
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await admin(`drop database if exists ${dbName} with (force)`);
    // Graceful shutdown: both processes close the server and the pool and exit 0.
    expect(codes, [a, b].map((i) => `${i?.name}:\n${i?.output.join('')}`).join('\n')).toEqual([0, 0]);
  }, 30_000);

  it('starts on A, finishes on B, and the session works on both until logout on B', async () => {
    // The browser starts the sign-in on A.
    const login = await fetch(`${a.url}/api/saml/login/standard?next=%2Fwelcome`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    const location = login.headers.get('location') ?? '';
    expect(location.startsWith(`${publicUrl}/idp/sso?SAMLRequest=`)).toBe(true);
    const anonymousCookie = sessionCookie(login);
    expect(anonymousCookie).toBeTruthy();
    // The sign-in belongs to this browser: its nonce cookie must come back with the IdP's post.
    const signInNonce = sessionCookie(login, 'pra_saml');
    expect(signInNonce).toBeTruthy();
    const requestId = authnRequestIdFromUrl(location);

    // The IdP answers; the load balancer sends the post to B.
    const idpKeys = readKeyPair(join(dataDir, 'saml-idp.key'), join(dataDir, 'saml-idp.crt'));
    const samlResponse = forgeResponse({
      issuer: `${publicUrl}/idp/metadata`,
      acsUrl: `${publicUrl}/api/saml/acs`,
      audience: `${publicUrl}/api/saml/metadata`,
      nameId: 'jdoe',
      inResponseTo: requestId,
      keys: idpKeys,
    });
    const acs = await fetch(`${b.url}/api/saml/acs`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `${anonymousCookie ?? ''}; ${signInNonce ?? ''}`,
      },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '/welcome' }).toString(),
    });
    expect(acs.status).toBe(303);
    expect(acs.headers.get('location')).toBe('/welcome');
    const cookie = sessionCookie(acs) ?? '';
    expect(cookie).toMatch(/^pra_session=.{20,}/);
    expect(cookie).not.toBe(anonymousCookie);

    // The same response replayed to A is refused: the assertion id is shared too.
    const replay = await fetch(`${a.url}/api/saml/acs`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/auth-failure');

    for (const instance of [a, b]) {
      const user = await fetch(`${instance.url}/api/user`, { headers: { cookie, 'x-pra-api-call': 'true' } });
      expect(user.status, instance.name).toBe(200);
      expect(await user.json()).toMatchObject({ username: 'jdoe', type: 'vendor', orgs: ['Acme Imaging'] });
    }

    // A CSRF token from A is accepted by B: both hold the same secret.
    const csrf = await fetch(`${a.url}/api/csrf`, { headers: { cookie, 'x-pra-api-call': 'true' } });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const extend = await fetch(`${b.url}/api/user/extend-session`, {
      method: 'POST',
      headers: { cookie, 'x-pra-api-call': 'true', 'x-csrf-token': csrfToken },
    });
    expect(extend.status).toBe(200);
    expect(await extend.json()).toEqual({ success: true });
    const status = await fetch(`${a.url}/api/saml/is-authenticated`, { headers: { cookie } });
    expect(await status.json()).toMatchObject({ isAuthenticated: true, remainingSessionExtentions: 2 });

    // Logout on B ends the session on A as well.
    const logout = await fetch(`${b.url}/api/saml/logout`, { headers: { cookie, 'x-pra-api-call': 'true' } });
    expect(logout.status).toBe(200);
    expect(await logout.json()).toEqual({});
    expect(sessionCookie(logout)).toBe('');
    const after = await fetch(`${a.url}/api/saml/is-authenticated`, { headers: { cookie } });
    expect(await after.json()).toEqual({ isAuthenticated: false });
    const userAfter = await fetch(`${a.url}/api/user`, { headers: { cookie, 'x-pra-api-call': 'true' } });
    expect(userAfter.status).toBe(401);
  });
});
