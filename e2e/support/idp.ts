import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { DEMO_PASSWORD } from '../playwright.config';

/**
 * TOTP secrets the journeys enrolled, per portal and username, and the last step each used. Kept
 * in a file of this run, so a journey in another spec file (or a restarted worker) can sign in
 * again with the authenticator enrolled earlier.
 */
interface Enrolled {
  secret: string;
  lastStep: number;
}

/**
 * One file per portal: the journeys run in two lanes at once (playwright.config.ts), each with
 * portals of its own, and a file shared by both would lose one lane's write to the other's.
 */
const fileOf = (name: string, origin: string) =>
  join(process.env.PRA_E2E_DIR ?? '.', `${name}-${new URL(origin).port || 'default'}.json`);
const readJson = <T>(file: string): Record<string, T> =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, T>) : {};
/** `key` is `${origin}:${username}`. */
const originOf = (key: string) => key.slice(0, key.lastIndexOf(':'));
/** What the run enrolled for `key`, if anything. */
const enrolledOf = (key: string) => readJson<Enrolled>(fileOf('totp-secrets', originOf(key)))[key];
const save = (key: string, enrolled: Enrolled) => {
  const file = fileOf('totp-secrets', originOf(key));
  writeFileSync(file, JSON.stringify({ ...readJson<Enrolled>(file), [key]: enrolled }));
};

/** Passwords a journey changed (Forgot Password), per portal and username, in a file of this run. */
const loadPasswords = (origin: string) => readJson<string>(fileOf('passwords', origin));

/** Records a password a journey set, so later sign-ins of this run (any spec file) use it. */
export function rememberPassword(origin: string, username: string, password: string): void {
  const file = fileOf('passwords', origin);
  writeFileSync(file, JSON.stringify({ ...loadPasswords(origin), [`${origin}:${username}`]: password }));
}

/** The account's password in this run: the demo password unless a journey changed it. */
export function currentPassword(origin: string, username: string): string {
  return loadPasswords(origin)[`${origin}:${username}`] ?? DEMO_PASSWORD;
}

/**
 * A passcode for a time step the IdP has not seen yet: the IdP accepts now ±1 step and refuses a
 * step already used, so a second sign-in within 30 s uses the next step instead of waiting.
 */
async function freshCode(key: string, secret: string): Promise<string> {
  const currentStep = () => Math.floor(Date.now() / 1000 / 30);
  const next = (enrolledOf(key)?.lastStep ?? currentStep() - 1) + 1;
  // Every step the IdP would accept now is used up: wait, as a person would, for a new code.
  while (next > currentStep() + 1) await new Promise((resolve) => setTimeout(resolve, 1000));
  const step = Math.max(currentStep(), next);
  save(key, { secret, lastStep: step });
  return generate({ secret, epoch: step * 30 });
}

/** A passcode of the account's enrolled authenticator that the portal has not seen yet. */
export async function enrolledPasscode(origin: string, username: string): Promise<string> {
  const key = `${origin}:${username}`;
  const secret = enrolledOf(key)?.secret;
  if (!secret) throw new Error(`no enrolled secret for ${key}`);
  return freshCode(key, secret);
}

/** Whether a journey of this run (in any spec file) already enrolled the account on that portal. */
export function isEnrolled(origin: string, username: string): boolean {
  const key = `${origin}:${username}`;
  return enrolledOf(key) !== undefined;
}

/**
 * Completes the built-in IdP's pages: username and password, then either TOTP enrolment (the
 * secret is read from the page, as a person would type it into an app) or the passcode.
 */
export async function completeIdpSignIn(
  page: Page,
  username: string,
  password?: string,
): Promise<'enrolled' | 'passcode'> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password ?? currentPassword(new URL(page.url()).origin, username));
  await page.getByRole('button', { name: 'Sign In' }).click();
  const origin = new URL(page.url()).origin;
  const key = `${origin}:${username}`;
  const enrol = page.getByRole('heading', { name: 'Set up your authenticator app' });
  const passcode = page.getByLabel('Passcode');
  await expect(passcode).toBeVisible();
  if (await enrol.isVisible()) {
    const secret = (await page.locator('#totp-secret').innerText()).replace(/\s+/g, '');
    await passcode.fill(await freshCode(key, secret));
    await page.getByLabel('Device nickname').fill(`${username}'s phone`);
    await page.getByRole('button', { name: 'Confirm' }).click();
    return 'enrolled';
  }
  const secret = enrolledOf(key)?.secret;
  if (!secret) throw new Error(`no enrolled secret for ${key}`);
  await passcode.fill(await freshCode(key, secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  return 'passcode';
}

/** Signs in from the landing page's Login link and waits for the welcome page. */
export async function signInFromHome(page: Page, username: string): Promise<void> {
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await completeIdpSignIn(page, username);
  await expect(page).toHaveURL(/\/welcome$/);
}

/** The titles of the welcome page's cards, badge text left out. */
export async function welcomeCards(page: Page): Promise<string[]> {
  const titles = await page.getByRole('main').getByRole('heading', { level: 2 }).allInnerTexts();
  return titles
    .map((t) =>
      t
        .replace(/\s*\d+\s*pending$/, '')
        .replace(/\s+\d+$/, '')
        .trim(),
    )
    .sort();
}
