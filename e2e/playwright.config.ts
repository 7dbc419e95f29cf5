import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, KEEP_PICTURES } from './support/chromium';

/**
 * Browser journeys against the real, built server in standalone mode (embedded database,
 * built-in IdP, dev mailbox), in Debian's Chromium: this clone's build, or the production
 * artifact named by PRA_E2E_ARTIFACT. Each run gets fresh data directories.
 */
process.env.PRA_E2E_DIR ??= mkdtempSync(join(tmpdir(), 'pra-e2e-'));
const dataRoot = process.env.PRA_E2E_DIR;
export const DEMO_PASSWORD = 'E2e-Demo-Portal-2025!';
/**
 * PRA_E2E_PORT lets two checkouts run their journeys at once; the short-session portal takes the
 * next port, the test-clock portal the one after, directory-admin.spec.ts's own portal PORT + 3,
 * four more test-clock portals PORT + 4 to + 8, a second portal like the main one PORT + 9, and
 * starting-portal.spec.ts's portal, which never gets its database, PORT + 10.
 */
export const PORT = Number(process.env.PRA_E2E_PORT ?? 8181);
/** A second portal whose sessions last one minute, for the session-timer journey. */
export const SHORT_SESSION_PORT = PORT + 1;
/**
 * A third portal with the standalone test clock (TEST_CLOCK=1: POST /dev/clock and
 * /dev/governance/run), for the governance journeys that move time without moving the others'.
 */
export const TEST_CLOCK_PORT = PORT + 2;
/**
 * The access-review and BRM-departure journeys each move their own test-clock portal's time by
 * months, which would change what the other journeys on a shared one find (dormant accounts,
 * grants ending): each gets a portal of its own (PORT + 3 is directory-admin.spec.ts's).
 */
export const REVIEWS_CLOCK_PORT = PORT + 4;
export const DEPARTURE_CLOCK_PORT = PORT + 5;
/** The weekly activity review's journey moves its portal's clock to the next Monday. */
export const ACTIVITY_CLOCK_PORT = PORT + 7;
/** The Acceptable Use Policy journey moves its portal's time past a version's grace (aup.spec.ts). */
export const AUP_CLOCK_PORT = PORT + 6;
/**
 * The emergency-access and reported-departure journeys (GOVERNANCE.md §10) move their own
 * test-clock portal past an emergency grant's end.
 */
export const EMERGENCY_CLOCK_PORT = PORT + 8;

/**
 * PRA_E2E_ARTIFACT: an unpacked production artifact (`npm run package`, docs/OPERATIONS.md
 * "Install") to run the journeys against, started with `node server.mjs` in its folder, instead of
 * this clone's build (CI does this once: scripts/check-artifact.mjs unpacks it).
 */
const artifact = process.env.PRA_E2E_ARTIFACT ? resolve(process.env.PRA_E2E_ARTIFACT) : null;

/**
 * The journeys on portals of their own (the test-clock portals and directory-admin.spec.ts's): the
 * first lane. Every other journey uses the main and the short-session portal: the second lane.
 */
const OWN_PORTAL_SPECS = [
  'access-expiry',
  'access-reviews',
  'activity-review',
  'aup',
  'departure',
  'directory-admin',
  'emergencies',
  'governance-admin',
  'passkey-grace',
  'starting-portal',
].map((name) => `**/${name}.spec.ts`);

/**
 * A second portal like the main one (the same settings, MAIN_PORTAL_SETTINGS), for journeys that
 * need nothing a main-portal journey left behind: they run in the own-portal lane once its journeys
 * are done (the projects below), so the two lanes take about as long as each other. Measured 2026-11-29 (npx playwright test, this
 * machine): the own-portal lane ended after 363 s and the main-portal lane after 731 s, 659 s of it
 * journeys; these two files took 163 s of it.
 */
export const SECOND_PORT = PORT + 9;
const SECOND_PORTAL_SPECS = ['forgot-password', 'request-access'].map((name) => `**/${name}.spec.ts`);

/** How a portal of the journeys is started: the artifact's entry point or this clone's build. */
export const portalProcess = {
  script: artifact ? 'server.mjs' : 'apps/server/dist/server.js',
  cwd: artifact ?? resolve(import.meta.dirname, '..'),
};

/** A standalone portal's settings (a spec that starts its own portal uses them too). */
export function portalEnv(port: number, name: string, extra: Record<string, string> = {}) {
  return {
    PRA_MODE: 'standalone',
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: join(dataRoot, name),
    DEMO_PASSWORD,
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/**
 * The main portal's settings, and the second one's: a push waits 3 minutes for the phone, not the
 * default one. The push journeys check the waiting dialog and the phone's request with axe while it
 * waits, and on a loaded 2-core machine those two checks took 65 s, past the default's end
 * (forgot-password.spec.ts failed waiting for a Deny button the expired request no longer showed).
 */
const MAIN_PORTAL_SETTINGS = { PUSH_TIMEOUT_SECONDS: '180' };

function server(port: number, name: string, extra: Record<string, string> = {}) {
  return {
    command: `node ${portalProcess.script}`,
    cwd: portalProcess.cwd,
    url: `http://localhost:${port}/api/service_check`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: portalEnv(port, name, extra),
  };
}

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: join(dataRoot, 'test-results'),
  fullyParallel: false,
  // Two lanes at once, each one file after another: the journeys mostly wait (for a new TOTP step,
  // for mail, for a session to run out), so a second lane roughly halves the run's length. A
  // project's files share its portals' accounts and clocks; no file of one project uses a portal of
  // another. One worker per project, two in all: the main portal's files (the longest project) run
  // in one lane from the start; the other lane takes the own-portal files, then the second portal's
  // (playwright takes the first queued file whose project has a worker free, in this order).
  workers: 2,
  projects: [
    { name: 'main portal', testIgnore: [...OWN_PORTAL_SPECS, ...SECOND_PORTAL_SPECS], workers: 1 },
    { name: 'own portals', testMatch: OWN_PORTAL_SPECS, workers: 1 },
    {
      name: 'second portal',
      testMatch: SECOND_PORTAL_SPECS,
      workers: 1,
      use: { baseURL: `http://localhost:${SECOND_PORT}` },
    },
  ],
  retries: 0,
  // A journey's own limit where it is long (test.setTimeout); the rest get two minutes: on a
  // loaded 2-core CI machine (image build and the oldest line's server tests beside the journeys)
  // stop 38's run took twice its usual time and two 35-second journeys ran past one minute.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // A failed journey's trace: its DOM snapshots always, the screencast where pictures are kept.
    trace: { mode: 'retain-on-failure', screenshots: KEEP_PICTURES, snapshots: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  webServer: [
    server(PORT, 'main', MAIN_PORTAL_SETTINGS),
    server(SECOND_PORT, 'second', MAIN_PORTAL_SETTINGS),
    server(SHORT_SESSION_PORT, 'short-session', { SESSION_LIFETIME_MINUTES: '1' }),
    server(TEST_CLOCK_PORT, 'test-clock', { TEST_CLOCK: '1' }),
    server(REVIEWS_CLOCK_PORT, 'test-clock-reviews', { TEST_CLOCK: '1' }),
    server(DEPARTURE_CLOCK_PORT, 'test-clock-departure', { TEST_CLOCK: '1' }),
    server(ACTIVITY_CLOCK_PORT, 'test-clock-activity', { TEST_CLOCK: '1' }),
    server(AUP_CLOCK_PORT, 'test-clock-aup', { TEST_CLOCK: '1' }),
    server(EMERGENCY_CLOCK_PORT, 'test-clock-emergency', { TEST_CLOCK: '1' }),
  ],
});
