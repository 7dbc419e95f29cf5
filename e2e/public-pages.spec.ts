import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';

test.describe('public pages', () => {
  test('the landing page offers its six links', async ({ page }) => {
    const response = await page.goto('/home');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/PRA Portal/);
    const links = [
      ['Login', '/api/saml/login/standard?next=%2Fwelcome'],
      ['Register New User', '/new-user'],
      ['Activate Account', '/activate-account'],
      ['Forgot User ID', '/forgot-user-id'],
      ['Forgot Password', '/forgot-password'],
    ] as const;
    for (const [name, href] of links) {
      await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(page.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', /^mailto:/);
    await expectAccessible(page, '/home');
  });

  test('/ sends an anonymous visitor to /home', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/home$/);
  });

  test('the authentication failure page explains and offers Go Back and Home', async ({ page }) => {
    await page.goto('/home');
    await page.goto('/auth-failure');
    await expect(page.getByRole('heading', { level: 1, name: 'Authentication Failure' })).toBeVisible();
    await expect(page.getByText(/login attempt was unsuccessful/i)).toBeVisible();
    await expect(page.getByText(/contact a system administrator/i)).toBeVisible();
    await expectAccessible(page, '/auth-failure');
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/auth-failure');
    await page.getByRole('button', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('the test service-provider page says it is not enabled', async ({ page }) => {
    await page.goto('/fakesp');
    await expect(page.getByText(/test service provider is not enabled in this environment/i)).toBeVisible();
    await expectAccessible(page, '/fakesp');
  });

  test('an unknown route shows the general error page with 404', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Oops! Something Went Wrong' })).toBeVisible();
    await expect(page.getByText('404 Not Found')).toBeVisible();
    await expectAccessible(page, 'unknown route');
  });

  test('the status page shows the service check, without details for anonymous visitors', async ({
    page,
  }) => {
    await page.goto('/status_check');
    await expect(page.getByText('status: OK')).toBeVisible();
    await expect(page.getByText('database:')).toHaveCount(0);
    await expectAccessible(page, '/status_check');
  });

  test('the footer links open in a new tab and the copyright says 2025', async ({ page }) => {
    await page.goto('/status_check');
    for (const name of ['Disclaimer', 'Privacy Notice', 'Website Privacy Policy']) {
      await expect(page.getByRole('link', { name })).toHaveAttribute('target', '_blank');
    }
    await expect(page.getByText(/2025/)).toBeVisible();
  });
});

test('no page breaks the content security policy, a signed-in one and its forms included', async ({
  page,
}) => {
  // Every report the browser makes of a refused script, style, eval or connection, page by page.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
  });
  const violations = async () =>
    page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  for (const [path, heading] of [
    ['/home', 'Welcome to the PRA Portal'],
    ['/new-user', 'New User Registration'],
    ['/forgot-password', 'Identify Yourself'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    expect(await violations(), path).toEqual([]);
  }
  await signInFromHome(page, 'bbrown');
  await page.goto('/brm/manage-users');
  await expect(page.getByText(/^Managing \d+ users$/)).toBeVisible();
  expect(await violations(), '/brm/manage-users').toEqual([]);
});

test('the landing page is drawn before its code runs', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the PRA Portal' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Register New User' })).toHaveAttribute('href', '/new-user');
  await context.close();
});

test('the web app is sent compressed, and cached for good once hashed', async ({ request }) => {
  // Not /home: the drawn landing page loads its code through load-after-paint.js.
  const html = await (await request.get('/activate-account')).text();
  const entry = /<script type="module"[^>]*src="([^"]+\.js)"/.exec(html)?.[1];
  expect(entry).toMatch(/^\/assets\//);
  const compressed = await request.get(entry!, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(compressed.status()).toBe(200);
  expect(compressed.headers()['content-encoding']).toBe('br');
  expect(compressed.headers()['vary']).toMatch(/accept-encoding/i);
  expect(compressed.headers()['cache-control']).toContain('immutable');
  const gzip = await request.get(entry!, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
});
