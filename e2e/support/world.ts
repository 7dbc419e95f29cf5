import { expect, type Page } from '@playwright/test';
import { KEEP_PICTURES } from './chromium';
import { completeIdpSignIn } from './idp';
import { activationLink, waitForMail } from './mailbox';

/**
 * The signed-in person's API calls from the browser's own cookie jar, as the web app makes them
 * (the API-call marker and the session's CSRF token), for setting up a journey's world.
 */
export async function apiAs(page: Page) {
  const csrf = (await (await page.request.get('/api/csrf')).json()) as { csrfToken: string };
  const headers = { 'x-pra-api-call': 'true', 'x-csrf-token': csrf.csrfToken };
  return {
    async post(url: string, data: unknown): Promise<unknown> {
      const response = await page.request.post(url, { data, headers });
      expect(response.status(), `${url}: ${await response.text()}`).toBeLessThan(300);
      return response.json();
    },
  };
}

export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/**
 * A new active vendor: registered on its behalf by the signed-in admin or BRM (so its account
 * exists at once), then activated through the emailed link by the vendor, who then signs in.
 * Leaves the vendor signed in on /welcome; returns its username.
 */
export async function createActiveVendor(
  page: Page,
  person: { firstName: string; lastName: string; email: string; org: string },
  password: string,
): Promise<string> {
  const api = await apiAs(page);
  await api.post('/api/user/new/submit', person);
  await logOut(page);
  const mail = await waitForMail(page.request, person.email, /activate your account/);
  await page.goto(activationLink(mail));
  const username = await page.getByLabel('Username').inputValue();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('New Password').fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Activate Account' }).click();
  await expect(page.getByRole('heading', { name: 'Congratulations!' })).toBeVisible();
  await page.getByRole('link', { name: 'Login' }).click();
  await completeIdpSignIn(page, username, password);
  await expect(page).toHaveURL(/\/welcome$/);
  return username;
}

/** Screenshots of the page at desktop and phone size, into the run's results folder, for a look. */
export async function screenshots(page: Page, name: string): Promise<void> {
  const dir = `${process.env.PRA_E2E_DIR ?? '.'}/screens`;
  if (KEEP_PICTURES) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${dir}/${name}-desktop.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  if (KEEP_PICTURES) await page.screenshot({ path: `${dir}/${name}-phone.png`, fullPage: true });
  // Nothing wider than the phone's screen, pictures or not.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 720 });
}
