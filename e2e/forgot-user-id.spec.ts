import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { waitForMail } from './support/mailbox';

test('forgot user ID finds the demo vendor and mails the username to its owner', async ({ page }) => {
  await page.goto('/home');
  await page.getByRole('link', { name: 'Forgot User ID' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot User ID' })).toBeVisible();
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await expectAccessible(page, '/forgot-user-id');

  // A typo in the email: the field says so, Next stays off.
  await page.getByLabel('First Name').fill('jane');
  await page.getByLabel('Last Name').fill('DOE');
  await page.getByLabel('Email').fill('jane.doe@');
  await page.getByLabel('Email').blur();
  await expect(page.getByText('Invalid email format')).toBeVisible();
  await expect(next).toBeDisabled();

  // No such account.
  await page.getByLabel('Email').fill('jane.doe@nowhere.example');
  await next.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Could not find matching account' })).toBeVisible();

  // Exact names and email, any case.
  await page.getByLabel('Email').fill('Jane.Doe@acme-imaging.example');
  await page.getByLabel('Email').press('Enter');
  await expect(page.getByRole('heading', { name: 'Found User' })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue('jdoe');
  await expect(page.getByLabel('Email')).toHaveValue('jane.doe@acme-imaging.example');
  await expectAccessible(page, 'Found User');

  const mail = await waitForMail(page.request, 'jane.doe@acme-imaging.example', /your user ID/);
  expect(mail.text).toContain('Your user ID is jdoe');

  await page.getByRole('link', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/home$/);
});
