// Signs a demo account in through the portal's built-in IdP in a browser, as a person would:
// Login on /home, username and password, then TOTP enrolment (secret read off the page) or the
// passcode of the authenticator enrolled earlier in this process.
import type { BrowserContext } from '@playwright/test';
import { generate } from 'otplib';
import { BENCH_DEMO_PASSWORD } from './portal';

const secrets = new Map<string, { secret: string; lastStep: number }>();

/** A passcode for a time step the IdP has not seen yet (it refuses a step used before). */
async function freshCode(key: string, secret: string): Promise<string> {
  const currentStep = () => Math.floor(Date.now() / 30_000);
  const next = (secrets.get(key)?.lastStep ?? currentStep() - 1) + 1;
  while (next > currentStep() + 1) await new Promise((resolve) => setTimeout(resolve, 1000));
  const step = Math.max(currentStep(), next);
  secrets.set(key, { secret, lastStep: step });
  return generate({ secret, epoch: step * 30 });
}

/** Leaves `context` signed in as `username` on the portal at `baseUrl`; returns its cookies as a header. */
export async function signIn(context: BrowserContext, baseUrl: string, username: string): Promise<string> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/home`);
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(BENCH_DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const passcode = page.getByLabel('Passcode');
  await passcode.waitFor();
  const key = `${baseUrl}:${username}`;
  if (await page.getByRole('heading', { name: 'Set up your authenticator app' }).isVisible()) {
    const secret = (await page.locator('#totp-secret').innerText()).replace(/\s+/g, '');
    await passcode.fill(await freshCode(key, secret));
    await page.getByLabel('Device nickname').fill(`${username}'s phone`);
    await page.getByRole('button', { name: 'Confirm' }).click();
  } else {
    const secret = secrets.get(key)?.secret;
    if (!secret) throw new Error(`no authenticator enrolled for ${username} in this run`);
    await passcode.fill(await freshCode(key, secret));
    await page.getByRole('button', { name: 'Verify' }).click();
  }
  await page.waitForURL(/\/welcome$/);
  await page.close();
  const cookies = await context.cookies(baseUrl);
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}
