import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInFromHome, welcomeCards } from './support/idp';

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

/** The page's lazy parts (and so React's takeover) arrive 3 s late: each file but the entry's. */
async function holdLazyParts(page: Page) {
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    if (!/\/assets\/index-[^/]*\.js$/.test(route.request().url())) {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
    await route.continue();
  });
}

async function expectSignedOut(page: Page) {
  // The lazy chunks on the way (the entry's own imports, then the endpoint and its schema
  // library) wait 3 s each.
  await expect(page).toHaveURL(/\/home$/, { timeout: 20_000 });
  const status = await page.request.get('/api/saml/is-authenticated');
  expect(await status.json()).toEqual({ isAuthenticated: false });
}

// The click comes before the entry has even run: the entry imports a chunk of its own (the
// bundler's runtime) that is held back too, so only load-after-paint.js sees it.
test('Log Out on the drawn /welcome signs out even when clicked before the app has taken the page over', async ({
  page,
}) => {
  await signInFromHome(page, 'cchen');
  await holdLazyParts(page);
  await page.goto('/welcome', { waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome Carlos Chen');
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expectSignedOut(page);
});

test('on a phone, the menu tapped open before the app has taken the drawn /welcome over opens once it has, and its Log Out signs out', async ({
  page,
}) => {
  await signInFromHome(page, 'cchen');
  await page.setViewportSize({ width: 390, height: 844 });
  await holdLazyParts(page);
  await page.goto('/welcome', { waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome Carlos Chen');
  const logOut = page.getByRole('button', { name: 'Log Out' });
  // Drawn, the menu is closed and its toggle has no handler yet: the tap is kept for the app.
  await expect(logOut).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Toggle navigation' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('data-clicked-early', '');
  await expect(logOut).toBeVisible({ timeout: 20_000 });
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.screenshot({ path: test.info().outputPath('welcome-phone-menu-after-early-tap.png') });
  await logOut.click();
  await expectSignedOut(page);
});
