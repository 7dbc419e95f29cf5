// Administration → Directory, on a portal of its own whose identity store is a hospital directory
// that does not answer (IDENTITY_STORE=ldap, LDAP_URL at a port nothing listens on): the welcome
// banner says account management is unavailable; an organization the admin creates queues its
// group for the directory, the worker's tries fail with the reason, and the admin sees the change
// with that reason and retries it, by keyboard.
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { closedPort, startOwnPortal } from './support/own-portal';
import { signInFromHome } from './support/idp';
import { screenshots } from './support/world';

const port = PORT + 3;
const origin = `http://localhost:${port}`;
test.use({ baseURL: origin });
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

let portal: ChildProcess | undefined;

test.beforeAll(async () => {
  const dir = process.env.PRA_E2E_DIR ?? '.';
  const passwordFile = join(dir, 'ldap-bind-password');
  writeFileSync(passwordFile, 'not-used-nothing-answers\n');
  portal = await startOwnPortal(port, 'directory-down', {
    IDENTITY_STORE: 'ldap',
    LDAP_URL: `ldap://127.0.0.1:${await closedPort()}`,
    LDAP_BIND_DN: 'cn=pra-portal,ou=services,dc=hospital,dc=example',
    LDAP_BIND_PASSWORD_FILE: passwordFile,
    LDAP_VENDORS_DN: 'ou=vendors,dc=hospital,dc=example',
    LDAP_GROUPS_DN: 'ou=groups,dc=hospital,dc=example',
    LDAP_TIMEOUT_MS: '500',
    LDAP_HEALTH_CACHE_SECONDS: '1',
  });
});

test.afterAll(() => {
  portal?.kill('SIGTERM');
});

test('an admin sees a directory change that keeps failing, with the reason, and retries it by keyboard', async ({
  page,
}) => {
  const org = `Directory Labs ${Date.now().toString(36)}`;
  await signInFromHome(page, 'admin');
  await expect(page.getByText('IIQ is currently unavailable')).toBeVisible();

  await page.goto('/admin/organizations');
  await page.getByLabel('New organization name').fill(org);
  await page
    .getByLabel('Email domains (separated by spaces)')
    .fill(`dirlabs-${Date.now().toString(36)}.example`);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(`Organization ${org} created.`)).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Administration sections' })
    .getByRole('link', { name: 'Directory' })
    .click();
  await expect(page).toHaveURL(/\/admin\/directory$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Directory' })).toBeVisible();
  await expect(page.getByText('Does not answer')).toBeVisible();
  // The worker tries the organization's group within seconds; the screen refreshes by itself.
  const row = page.getByRole('row').filter({ hasText: org });
  await expect(row).toContainText('Organization group', { timeout: 30_000 });
  await expect(row).toContainText(/Retrying \(\d+ attempts?\)/);
  await expect(row).toContainText(/directory unavailable/i);
  await expectAccessible(page, '/admin/directory');
  await screenshots(page, 'admin-directory');

  // Keyboard only: from the section's heading, Tab reaches the row's Retry; Enter presses it.
  const retry = row.getByRole('button', { name: `Retry organization group for ${org}` });
  await page.getByRole('heading', { level: 2, name: 'Directory' }).click();
  for (let i = 0; i < 20 && !(await retry.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(retry).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Directory change queued again.')).toBeVisible();

  // The audit trail has the admin's retry.
  await page.goto('/admin/audit');
  await page.getByLabel('Action (starts with)').fill('provisioning.retry');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'provisioning.retry' }).first()).toBeVisible();
});
