import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, signInAs } from '../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../test/support/test-app';
import { testDatabaseKinds } from '../../test/support/databases';
import { api } from '@pra/contracts';
import { hashSessionId } from './session';
import type { BootData } from './web-app';

// The pages are served from the web build (npm run build); without it there is no page to test.
const built = existsSync(fileURLToPath(new URL('../../../web/dist/index.html', import.meta.url)));

function bootData(html: string): BootData | null {
  const match = /<meta name="pra-boot" content="([^"]*)"/.exec(html);
  if (!match?.[1]) return null;
  const json = match[1]
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(json) as BootData;
}

describe.skipIf(!built).each(testDatabaseKinds)('pages carry their boot data on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('gives an anonymous caller a session, its CSRF token and the anonymous status', async () => {
    const client = new TestClient(t.app);
    const page = await client.get('/home');
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(String(page.headers['set-cookie'])).toMatch(/HttpOnly/);
    const data = bootData(page.body);
    expect(data?.authStatus).toEqual({ isAuthenticated: false });
    expect(data?.systemMessage.enabled).toBe(false);
    // The same token GET /api/csrf gives that session, and no second session.
    expect(data?.csrfToken).toBe(await client.fetchCsrf());
    expect(data).not.toHaveProperty('currentUser');
    const again = await client.get('/welcome');
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(bootData(again.body)?.csrfToken).toBe(data?.csrfToken);
  });

  it('gives a signed-in caller its session status, as /api/saml/is-authenticated does', async () => {
    await createAccount(t, { username: 'bootvendor' });
    const client = await signInAs(t, 'bootvendor');
    const data = bootData((await client.get('/welcome')).body);
    expect(data?.csrfToken).toBe(client.csrfToken);
    expect(data?.authStatus).toEqual((await client.get('/api/saml/is-authenticated')).json());
    expect(data?.authStatus.isAuthenticated).toBe(true);
  });

  it('gives a signed-in caller the current user, exactly as GET /api/user answers that session', async () => {
    await createAccount(t, { username: 'bootvendor2' });
    await createAccount(t, { username: 'bootbrm', type: 'employee', isEmployeeBrm: true });
    for (const username of ['bootvendor2', 'bootbrm']) {
      const client = await signInAs(t, username);
      const user = await client.get('/api/user');
      expect(user.statusCode).toBe(200);
      const page = await client.get('/welcome');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(bootData(page.body)?.currentUser).toEqual(user.json());
      expect(bootData(page.body)?.currentUser?.username).toBe(username);
      // /home too (any page): it is then sent undrawn or drawn, but never with another's record.
      expect(bootData((await client.get('/home')).body)?.currentUser?.username).toBe(username);
    }
  });

  it('gives no current user to a session that is revoked, expired or whose account is no longer active', async () => {
    const sessionOf = (client: TestClient) =>
      hashSessionId(client.cookie.slice(client.cookie.indexOf('=') + 1));
    const cases: Array<[string, (client: TestClient) => Promise<unknown>]> = [
      [
        'bootrevoked',
        (client) =>
          t.ctx.db
            .updateTable('sessions')
            .set({ revoked_at: new Date() })
            .where('id_hash', '=', sessionOf(client))
            .execute(),
      ],
      [
        'bootexpired',
        (client) =>
          t.ctx.db
            .updateTable('sessions')
            .set({ expires_at: sql<Date>`now() - interval '1 second'` })
            .where('id_hash', '=', sessionOf(client))
            .execute(),
      ],
      [
        'bootdisabled',
        () =>
          t.ctx.db
            .updateTable('accounts')
            .set({ status: 'disabled' })
            .where('username', '=', 'bootdisabled')
            .execute(),
      ],
    ];
    for (const [username, end] of cases) {
      await createAccount(t, { username });
      const client = await signInAs(t, username);
      expect(bootData((await client.get('/welcome')).body)?.currentUser?.username).toBe(username);
      await end(client);
      const page = await client.get('/welcome');
      expect(page.body, username).not.toContain(username);
      const data = bootData(page.body);
      expect(data?.authStatus, username).toEqual({ isAuthenticated: false });
      expect(data, username).not.toHaveProperty('currentUser');
    }
  });

  it('opens no session for a path that is no page, nor for HEAD', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/no-such-page' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['set-cookie']).toBeUndefined();
    expect(bootData(missing.body)).toBeNull();
    const head = await t.app.inject({ method: 'HEAD', url: '/home' });
    expect(head.headers['set-cookie']).toBeUndefined();
  });

  it('sends /home already drawn (the prerendered landing page), other pages and its markup file not', async () => {
    const client = new TestClient(t.app);
    const home = await client.get('/home?x=1');
    expect(home.body).toContain('<div id="root"><!--$--><header');
    expect(home.body).toContain('<h1 class="page-title">Welcome to the PRA Portal</h1>');
    expect(home.body).toContain(`Copyright © 2025 <!-- -->${t.ctx.config.HOSPITAL_NAME}<!-- -->`);
    expect(home.body).not.toContain('@@pra-');
    expect(bootData(home.body)?.authStatus).toEqual({ isAuthenticated: false });
    expect((await client.get('/new-user')).body).toContain('<div id="root"></div>');
    const file = await client.get('/.prerendered/home.html');
    expect(file.statusCode).toBe(404);
    expect(file.body).not.toContain('@@pra-');
  });

  it('sends a signed-in /welcome already drawn for that person, and never to anyone else', async () => {
    await createAccount(t, { username: 'drawnvendor' });
    await t.ctx.db
      .updateTable('accounts')
      .set({ given_name: 'Grace <3', family_name: 'Hopper' })
      .where('username', '=', 'drawnvendor')
      .execute();
    const client = await signInAs(t, 'drawnvendor');
    const welcome = await client.get('/welcome');
    expect(welcome.headers['cache-control']).toBe('no-store');
    expect(welcome.body).toContain('<h1 class="page-title">Welcome Grace &lt;3 Hopper</h1>');
    expect(welcome.body).toContain('Manage profile or change password');
    expect(welcome.body).toMatch(
      /<link rel="stylesheet" crossorigin href="\/assets\/main-layout-[^"]+\.css">/,
    );
    expect(welcome.body).not.toContain('@@pra-');
    // Anonymous: the page the app draws itself (it sends the visitor to sign in), nothing drawn.
    const anonymous = await new TestClient(t.app).get('/welcome');
    expect(anonymous.body).toContain('<div id="root"></div>');
    expect(anonymous.body).not.toContain('Grace');
    expect((await t.app.inject({ method: 'GET', url: '/.prerendered/welcome.json' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/.vite/manifest.json' })).statusCode).toBe(404);
  });

  it('sends /home and /welcome to be drawn by the app while a system message banner shows (not in the drawings)', async () => {
    const message = (enabled: boolean) =>
      t.ctx.db
        .updateTable('system_message')
        .set({ enabled, text: 'Maintenance tonight' })
        .where('id', '=', 1)
        .execute();
    await message(true);
    try {
      const home = await new TestClient(t.app).get('/home');
      expect(home.body).toContain('<div id="root"></div>');
      expect(bootData(home.body)?.systemMessage.text).toBe('Maintenance tonight');
      await createAccount(t, { username: 'bannervendor' });
      const welcome = await (await signInAs(t, 'bannervendor')).get('/welcome');
      expect(welcome.body).toContain('<div id="root"></div>');
      expect(bootData(welcome.body)?.currentUser?.username).toBe('bannervendor');
    } finally {
      await message(false);
    }
  });
  it('gives a signed-in page the banner GET /api/system/message answers, read with its session lookup', async () => {
    await createAccount(t, { username: 'bannerwindow' });
    const client = await signInAs(t, 'bannerwindow');
    const hour = 3_600_000;
    const cases = [
      { logged_in_only: true, starts_at: null, ends_at: null },
      { logged_in_only: false, starts_at: new Date(Date.now() + hour), ends_at: null },
      { logged_in_only: false, starts_at: null, ends_at: new Date(Date.now() - hour) },
      { logged_in_only: true, starts_at: new Date(Date.now() - hour), ends_at: new Date(Date.now() + hour) },
    ];
    try {
      for (const window of cases) {
        await t.ctx.db
          .updateTable('system_message')
          .set({ enabled: true, severity: 'warning', title: 'Notice', text: 'Window test', ...window })
          .where('id', '=', 1)
          .execute();
        const page = bootData((await client.get('/welcome')).body)?.systemMessage;
        const answered = (await client.get(api.systemMessage)).json();
        expect(page, JSON.stringify(window)).toEqual(answered);
      }
      // The last one shows (signed in, within its window); the two before it do not.
      expect(bootData((await client.get('/welcome')).body)?.systemMessage.text).toBe('Window test');
    } finally {
      await t.ctx.db
        .updateTable('system_message')
        .set({ enabled: false, logged_in_only: false, starts_at: null, ends_at: null })
        .where('id', '=', 1)
        .execute();
    }
  });
});
