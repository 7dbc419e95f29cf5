import { expect, type Browser, type Page } from '@playwright/test';
import { KEEP_PICTURES } from './chromium';
import { completeIdpSignIn, signInFromHome } from './idp';
import { activationLink, waitForMail } from './mailbox';

export interface Person {
  first: string;
  last: string;
  email: string;
}

/** A BRM or admin registers a vendor on its behalf; returns the activation link mailed to the vendor. */
export async function registerOnBehalf(page: Page, manager: string, person: Person, org: string) {
  await signInFromHome(page, manager);
  await page.goto('/new-user');
  await page.getByLabel('First Name').fill(person.first);
  await page.getByLabel('Last Name').fill(person.last);
  await page.getByLabel('Email').fill(person.email);
  const organization = page.getByLabel('Organization');
  await expect(organization.locator('option', { hasText: org })).toHaveCount(1);
  await organization.selectOption({ label: org });
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Registration Successful' })).toBeVisible();
  return activationLink(await waitForMail(page.request, person.email, /activate your account/));
}

/** Activates an account from its link with `password`; returns the username shown. */
export async function activate(page: Page, link: string, password: string): Promise<string> {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Account Activation' })).toBeVisible();
  const username = await page.getByLabel('Username').inputValue();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('New Password').fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Activate Account' }).click();
  await expect(page.getByRole('heading', { name: 'Congratulations!' })).toBeVisible();
  return username;
}

/** A fresh browser context signed in as `username` (first sign-in enrols TOTP). */
export async function signedInPage(browser: Browser, username: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await completeIdpSignIn(page, username, password);
  await expect(page).toHaveURL(/\/welcome$/);
  return page;
}

/** Desktop and phone (390x844) screenshots of the page as it is, into the run's directory. */
export async function screenshots(page: Page, name: string): Promise<void> {
  if (!KEEP_PICTURES) return;
  const dir = process.env.PRA_SCREENSHOT_DIR ?? `${process.env.PRA_E2E_DIR ?? '.'}/screenshots`;
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.screenshot({ path: `${dir}/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(size);
}
