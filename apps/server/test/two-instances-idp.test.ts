// Two instances, each with its own DATA_DIR (two hosts) but one PostgreSQL, the built-in IdP on
// both: a load balancer that sends every step of a sign-in to the other instance must still sign
// the person in, so the IdP's and the SP's generated keys have to be the same on both.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, signInThroughBuiltinIdp } from './support/http-browser';
import {
  buildServer,
  freePort,
  scratchDatabase,
  startServer,
  stopServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';

const DEMO_PASSWORD = 'Demo-Secret-2024!xyz';

describe.skipIf(!process.env.TEST_DATABASE_URL)('the built-in IdP behind two instances', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  const dataDirs: string[] = [];
  let a: Instance;
  let b: Instance;
  let publicUrl: string;

  beforeAll(async () => {
    buildServer();
    database = await scratchDatabase();
    const [portA, portB] = [await freePort(), await freePort()];
    publicUrl = `http://localhost:${portA}`;
    const env = (name: string, demoData: boolean) => {
      const dataDir = mkdtempSync(join(tmpdir(), `pra-idp-${name}-`));
      dataDirs.push(dataDir);
      return {
        PRA_MODE: 'standalone',
        IDP: 'builtin',
        DATABASE_URL: database?.url ?? '',
        DATA_DIR: dataDir,
        // What every instance shares: the database and the secrets.
        SESSION_SECRET: 'shared-session-secret-shared-session-secret',
        DATA_ENCRYPTION_KEY: 'shared-encryption-key-shared-encryption-key',
        DEMO_DATA: String(demoData),
        DEMO_PASSWORD,
        LOG_LEVEL: 'warn',
        PUBLIC_URL: publicUrl,
      };
    };
    // Started together: both find no key yet, and the database decides which one both use. (Only
    // A seeds the demo data: two instances seeding at once can collide, which is not this test's.)
    a = startServer('A', portA, env('a', true));
    b = startServer('B', portB, env('b', false));
    await Promise.all([waitUntilUp(a, 40_000), waitUntilUp(b, 40_000)]);
  }, 60_000);

  afterAll(async () => {
    const codes = await Promise.all([a, b].map(stopServer));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
    expect(codes).toEqual([0, 0]);
  }, 30_000);

  it('signs in when every step lands on the other instance', async () => {
    const browser = new Browser();
    // A's SP asks, B's IdP checks A's signature, and so on; A's SP checks what B's IdP signed.
    const acs = await signInThroughBuiltinIdp(browser, [a.url, b.url], {
      username: 'jdoe',
      password: DEMO_PASSWORD,
    });
    expect(acs.status).toBe(303);
    expect(acs.headers.get('location')).toBe('/welcome');
    const user = await browser.fetch(`${b.url}/api/user`, { headers: { 'x-pra-api-call': 'true' } });
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ username: 'jdoe' });
  });
});
