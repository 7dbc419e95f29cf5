import { expect, request, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';

// A sign-in with TOTP and one service token's life: made, used, revoked.
test.setTimeout(120_000);

const name = `SIEM export ${Date.now().toString(36)}`;

test('an admin makes a service token, sees it once, automation uses it, and it stops once revoked', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInFromHome(page, 'admin');
  await page.goto('/admin/organizations');
  await page
    .getByRole('navigation', { name: 'Administration sections' })
    .getByRole('link', { name: 'Service tokens' })
    .click();
  await expect(page).toHaveURL(/\/admin\/service-tokens$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Service tokens' })).toBeVisible();
  await expectAccessible(page, '/admin/service-tokens');

  // By keyboard: the name typed, a scope ticked with Space, the form sent with Enter.
  const form = page.getByRole('form', { name: 'Create a service token' });
  const create = form.getByRole('button', { name: 'Create token' });
  await expect(create).toBeDisabled();
  await form.getByLabel('Token name').focus();
  await page.keyboard.type(name);
  await form.getByRole('checkbox', { name: /^audit:read/ }).focus();
  await page.keyboard.press('Space');
  await form.getByRole('checkbox', { name: /^people:read/ }).focus();
  await page.keyboard.press('Space');
  await expect(create).toBeEnabled();
  await create.focus();
  await page.keyboard.press('Enter');

  // Shown once: focus on its heading, the token in a read-only field, a copy button.
  const heading = page.getByRole('heading', { name: `Copy the token for ${name} now` });
  await expect(heading).toBeFocused();
  const field = page.getByLabel('New service token');
  const token = await field.inputValue();
  expect(token).toMatch(/^pra_[A-Za-z0-9_-]{43}$/);
  await expectAccessible(page, 'the new service token');
  await page.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied.' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(field).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('audit:read, people:read');
  await expect(row).toContainText('Active');
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
  expect(await page.content()).not.toContain(token);

  // Automation: the token alone, no browser session.
  const automation = await request.newContext({ baseURL });
  const people = await automation.get('/api/admin/people', { headers: { authorization: `Bearer ${token}` } });
  expect(people.status()).toBe(200);
  expect(((await people.json()) as { people: unknown[] }).people.length).toBeGreaterThan(0);
  const refused = await automation.put('/api/admin/maintenance', {
    headers: { authorization: `Bearer ${token}` },
    data: { maintenance: true },
  });
  expect(refused.status()).toBe(403);

  // Revoked after a confirmation: the next call is refused.
  await page.reload();
  await page.getByRole('button', { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke ${name}?` });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'the revocation dialog');
  await dialog.getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByText(`${name} revoked.`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Revoked');
  const after = await automation.get('/api/admin/people', { headers: { authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
  expect(after.headers()['www-authenticate']).toContain('error="invalid_token"');
  expect(await after.json()).toEqual({ errors: ['The service token has been revoked.'] });
  await automation.dispose();

  // The audit trail shows the token's life, by name.
  await page.goto(`/admin/audit`);
  await page.getByLabel('Action (starts with)').fill('service-token');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('main')).toContainText('service-token.refused');
  await expect(page.getByRole('main')).toContainText('service-token.use');
});
