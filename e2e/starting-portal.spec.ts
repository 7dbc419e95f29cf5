// A portal still starting (here: waiting for a PostgreSQL that never answers, DATABASE_URL at a
// port nothing listens on) shows a browser a page that says so, instead of the API's error
// envelope as raw text; the readiness probe says not ready all the while.
import type { ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { closedPort, startOwnPortal } from './support/own-portal';
import { screenshots } from './support/world';

const port = PORT + 10;
const origin = `http://localhost:${port}`;
test.use({ baseURL: origin });
test.setTimeout(120_000);

let portal: ChildProcess | undefined;

test.beforeAll(async () => {
  portal = await startOwnPortal(
    port,
    'starting',
    {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/pra`,
      DATABASE_STARTUP_WAIT_SECONDS: '600',
      DEMO_DATA: 'false',
    },
    { upWhen: '/healthz', withinMs: 60_000 },
  );
});

test.afterAll(() => {
  portal?.kill('SIGTERM');
});

test('a person who opens the portal while it starts is told it is unavailable for now, at desktop and phone size', async ({
  page,
}) => {
  expect((await fetch(`${origin}/readyz`)).status).toBe(503);
  const response = await page.goto('/home');
  expect(response?.status()).toBe(503);
  expect(response?.headers()['retry-after']).toBe('5');
  await expect(page).toHaveTitle('PRA Portal');
  await expect(page.getByRole('heading', { level: 1, name: 'PRA Portal' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(
    'The service is temporarily unavailable. Please try again shortly.',
  );
  await expectAccessible(page, 'the page of a portal still starting');
  // Desktop and phone pictures; at phone size nothing is wider than the screen.
  await screenshots(page, 'starting-portal');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/brm/manage-users');
  await expect(page.getByRole('status')).toBeVisible();
  await expectAccessible(page, 'the page of a portal still starting, at phone size');
  // Still starting: the API's callers get the error envelope, not the page.
  const api = await page.request.get('/api/user');
  expect(api.status()).toBe(503);
  expect(await api.json()).toEqual({
    errors: ['The service is temporarily unavailable. Please try again shortly.'],
  });
});
