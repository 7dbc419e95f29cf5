import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';
import { registerOnBehalf, screenshots } from './support/vendors';

test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const leaving = { first: 'Tomas', last: 'Ekberg', email: `tomas.ekberg.${run}@acme-imaging.example` };
const unknown = `nobody.${run}@acme-imaging.example`;
/** A demo vendor holding roles in Acme Imaging (bbrown's) and Initech Devices (cchen's). */
const twoOrgs = 'dana.reyes@initech.example';
/** Accounts outside bbrown's organizations: a Globex vendor (msmith) and an employee (cchen). */
const outsiders = ['mark.smith@globex.example', 'carlos.chen@hospital.example'];
/** The one line of every email naming no vendor of the BRM's organizations, unknown ones included. */
const NEUTRAL = 'No vendor account of your organizations has this email.';

async function chooseFile(page: Page, name: string, text: string) {
  await page.getByLabel('CSV file of email addresses').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(text),
  });
}

const resultOf = (page: Page, email: string) =>
  page.getByRole('row').filter({ hasText: email }).getByRole('cell').nth(1);

test('a BRM terminates three vendors from a file, after a preview, and sees what happened to each', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await registerOnBehalf(page, 'bbrown', leaving, 'Acme Imaging');
  await page.goto('/brm/terminate-vendors');
  await expect(page.getByRole('heading', { level: 1, name: 'Terminate Vendors' })).toBeVisible();
  await expect(page.getByText(/accounts with no remaining access are terminated/)).toBeVisible();
  const example = await page.request.get('/example.csv');
  expect(example.status()).toBe(200);
  expect(await example.text()).toContain('@');
  await expect(page.getByRole('button', { name: 'Terminate Users' })).toBeDisabled();
  await expectAccessible(page, '/brm/terminate-vendors');

  await chooseFile(page, 'empty.csv', ' \n');
  await expect(page.getByText('File is empty or improperly formatted')).toBeVisible();
  await chooseFile(page, 'bad.csv', 'email\nsomeone@acme-imaging.example\n');
  await expect(page.getByText('File consists of one or more invalid email addresses')).toBeVisible();
  await expectAccessible(page, '/brm/terminate-vendors file error');

  await chooseFile(
    page,
    'leavers.csv',
    `${twoOrgs}\n${leaving.email.toUpperCase()}, ${unknown}\n${outsiders.join('\n')}\n`,
  );
  await expect(page.getByText('File consists of one or more invalid email addresses')).toHaveCount(0);
  await expect(page.getByText(/Preview: nothing has changed yet/)).toBeVisible();
  await expect(resultOf(page, twoOrgs)).toContainText(
    /would lose its roles in Acme Imaging; it keeps its access/,
  );
  await expect(resultOf(page, leaving.email.toUpperCase())).toContainText(/would be terminated/);
  // Accounts outside the BRM's organizations read exactly as an unknown email: no username.
  for (const email of [unknown, ...outsiders]) await expect(resultOf(page, email)).toHaveText(NEUTRAL);
  await expectAccessible(page, '/brm/terminate-vendors preview');
  await screenshots(page, 'terminate-vendors-preview');

  // The preview's buttons are marked: the results' buttons must be new ones, not these restyled
  // (a red Terminate Users turning into Download results passed through colour blends for .15 s,
  // and axe, reading the page as a job finished, once failed its contrast there).
  const marked = await page
    .getByRole('button', { name: /^(Cancel|Terminate Users)$/ })
    .evaluateAll((buttons) => buttons.map((b) => (b.dataset.previewButton = 'yes')).length);
  expect(marked).toBe(2);
  await page.getByRole('button', { name: 'Terminate Users' }).click();
  const dialog = page.getByRole('dialog', { name: 'Terminate Users' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, '/brm/terminate-vendors confirmation');
  await dialog.getByRole('button', { name: 'Confirm termination' }).click();
  await expect(page.getByRole('button', { name: 'Done' })).toBeVisible();
  await expect(page.locator('[data-preview-button]')).toHaveCount(0);
  // Focus went with the confirmation's trigger: it lands on Done, for the keyboard to go on from.
  await expect(page.getByRole('button', { name: 'Done' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Terminate Users' })).toHaveCount(0);
  await expect(resultOf(page, twoOrgs)).toHaveText(
    'Account dreyes: roles removed from Acme Imaging; it keeps its access to other organizations.',
  );
  await expect(resultOf(page, leaving.email.toUpperCase())).toContainText(
    /roles removed from Acme Imaging; account terminated, sessions ended\.$/,
  );
  for (const email of [unknown, ...outsiders]) await expect(resultOf(page, email)).toHaveText(NEUTRAL);
  await expect(page.getByText(/msmith|cchen/)).toHaveCount(0);
  await expectAccessible(page, '/brm/terminate-vendors results');
  await screenshots(page, 'terminate-vendors-results');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download results (CSV)' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe('Email,Result');
  expect(csv).toContain(`${unknown},${NEUTRAL}`);
  expect(csv).toContain(`${outsiders[0]},${NEUTRAL}`);

  // Choosing a new file resets the earlier results.
  await chooseFile(page, 'again.csv', `${unknown}\n`);
  await expect(page.getByRole('button', { name: 'Terminate Users' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: twoOrgs })).toHaveCount(0);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/welcome$/);

  // The vendor of two organizations keeps the other BRM's organization and stays enabled.
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await signInFromHome(page, 'cchen');
  await page.goto('/brm/manage-users');
  await page.getByLabel('Filter by username, email or name').fill(twoOrgs);
  const row = page.getByRole('row').filter({ hasText: twoOrgs });
  await expect(row.getByRole('cell', { name: 'Enabled' })).toBeVisible();
});

test('a large file runs as a job: the page shows its progress, fills the results in, and finds it again after a reload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const big = { first: 'Ines', last: 'Marlow', email: `ines.marlow.${run}@acme-imaging.example` };
  await registerOnBehalf(page, 'bbrown', big, 'Acme Imaging');
  await page.goto('/brm/terminate-vendors');
  // 600 addresses (over the job threshold of 500): the new vendor last, behind 599 unknown ones.
  const emails = [
    ...Array.from({ length: 599 }, (_, i) => `gone${i}.${run}@acme-imaging.example`),
    big.email,
  ];
  await chooseFile(page, 'many.csv', emails.join('\n'));
  await expect(page.getByText(/Preview: nothing has changed yet/)).toBeVisible();
  await page.getByRole('button', { name: 'Terminate Users' }).click();
  await page
    .getByRole('dialog', { name: 'Terminate Users' })
    .getByRole('button', { name: 'Confirm termination' })
    .click();
  await expect(page.getByRole('progressbar', { name: 'Termination progress' })).toBeVisible();
  await expectAccessible(page, '/brm/terminate-vendors job');

  // A reload finds the job this tab started: its progress and results come back.
  await page.reload();
  // (The job may already be done by the time the reloaded page asks: its results are what count.)
  await expect(
    page.getByText('Done: 600 of 600 emails. The Results column says what happened to each email.'),
  ).toBeVisible({
    timeout: 60_000,
  });
  await page.getByLabel('Filter by email or result').fill(big.email);
  await expect(resultOf(page, big.email)).toContainText(
    /roles removed from Acme Imaging; account terminated, sessions ended\.$/,
  );
  await expectAccessible(page, '/brm/terminate-vendors job done');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  // Done: the page no longer follows it.
  await page.goto('/brm/terminate-vendors');
  await expect(page.getByRole('progressbar')).toHaveCount(0);
});
