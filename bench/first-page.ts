// The first-page rows (page weight from Chromium's network log, Lighthouse mobile) for /home and, signed in
// as the demo vendor jdoe through the built-in IdP, /welcome. bench/run.ts includes them in its table;
// alone: `npm run build && node --import tsx bench/first-page.ts [lighthouse runs]` starts the built
// portal on a free port and prints just these rows in the same table.
import { chromium } from '@playwright/test';
import { benchLighthouse } from './lighthouse';
import { benchPageWeight } from './page-weight';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { startPortal } from './support/portal';
import { signIn } from './support/sign-in';
import { printTable, type BenchRow } from './table';

/** Page weight and Lighthouse rows for /home and /welcome of the portal (startPortal's) at `baseUrl`. */
export async function benchFirstPage(baseUrl: string, lighthouseRuns = 3): Promise<BenchRow[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const cookie = await signIn(await browser.newContext(), baseUrl, 'jdoe').finally(() => browser.close());
  return [
    ...(await benchPageWeight(baseUrl, cookie)),
    ...(await benchLighthouse(baseUrl, cookie, lighthouseRuns)),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const portal = await startPortal();
  try {
    printTable(await benchFirstPage(portal.url, Number(process.argv[2] ?? 3)));
  } finally {
    await portal.stop();
  }
}
