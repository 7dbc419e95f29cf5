import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInFromHome, welcomeCards } from './support/idp';

// Each journey signs in through the built-in IdP first: on the shared machine under load that
// alone took up to a minute.
test.setTimeout(180_000);

const BRM_CARDS = [
  'Access Reviews',
  'Approvals',
  'Away and Backup',
  'New User',
  'Terminate Vendors',
  'User Guides',
  'Users',
];

test('/welcome arrives drawn for the signed-in person, and the app takes it over without asking who it is', async ({
  page,
  browser,
}) => {
  await signInFromHome(page, 'bbrown');

  // Without its code: the page as the server sent it.
  const still = await browser.newContext({ javaScriptEnabled: false });
  await still.addCookies(await page.context().cookies());
  const drawn = await still.newPage();
  await drawn.goto('/welcome');
  await expect(drawn.getByRole('heading', { level: 1 })).toHaveText('Welcome Beatrice Brown');
  expect(await welcomeCards(drawn)).toEqual(BRM_CARDS);
  await expect(drawn.getByRole('link', { name: 'Users', exact: true }).first()).toBeVisible();
  await still.close();

  // With it: the current user came with the page, the badge count is fetched, the cards navigate in the app.
  const userCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/user') userCalls.push(request.url());
  });
  await page.goto('/welcome');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome Beatrice Brown');
  await expect(page.getByRole('link', { name: /^Approvals \d+ pending$/ })).toBeVisible();
  await expectAccessible(page, 'drawn /welcome');
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Users/ })
    .click();
  await expect(page).toHaveURL(/\/brm\/manage-users$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manage Users');
  expect(userCalls).toEqual([]);
});

/**
 * Holds back the page's files but the entry's own until the test releases them: the entry's
 * static imports (the bundler's runtime chunk among them) are held too, so the entry cannot run
 * and React cannot take the page over until then, however slow the machine.
 */
async function holdPageCode(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    if (!/\/assets\/index-[^/]*\.js$/.test(route.request().url())) await released;
    await route.continue();
  });
  return release;
}

async function expectSignedOut(page: Page) {
  await expect(page).toHaveURL(/\/home$/, { timeout: 20_000 });
  const status = await page.request.get('/api/saml/is-authenticated');
  expect(await status.json()).toEqual({ isAuthenticated: false });
}

// Only load-after-paint.js (loaded with the drawn page) sees the click: the app's code is not in yet.
test('Log Out on the drawn /welcome signs out even when clicked before the app has taken the page over', async ({
  page,
}) => {
  await signInFromHome(page, 'cchen');
  const release = await holdPageCode(page);
  await page.goto('/welcome', { waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome Carlos Chen');
  const logOut = page.getByRole('button', { name: 'Log Out' });
  await logOut.click();
  await expect(logOut).toHaveAttribute('data-clicked-early', '');
  release();
  await expectSignedOut(page);
});

test('on a phone, the menu tapped open before the app has taken the drawn /welcome over opens once it has, and its Log Out signs out', async ({
  page,
}) => {
  await signInFromHome(page, 'cchen');
  await page.setViewportSize({ width: 390, height: 844 });
  const release = await holdPageCode(page);
  await page.goto('/welcome', { waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome Carlos Chen');
  const logOut = page.getByRole('button', { name: 'Log Out' });
  // Drawn, the menu is closed and its toggle has no handler yet: the tap is kept for the app.
  await expect(logOut).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Toggle navigation' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('data-clicked-early', '');
  await expect(logOut).toBeHidden();
  release();
  await expect(logOut).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.screenshot({ path: test.info().outputPath('welcome-phone-menu-after-early-tap.png') });
  await logOut.click();
  await expectSignedOut(page);
});
