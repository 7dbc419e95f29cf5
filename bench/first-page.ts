// Runs the first-page benchmarks alone: `npm run build && node --import tsx bench/first-page.ts [runs]`.
// Starts the built portal on a free port, signs the demo vendor jdoe in through the built-in IdP for
// /welcome, then prints page weight (Chromium's network log) and Lighthouse (mobile) rows.
import { chromium } from '@playwright/test';
import { benchLighthouse } from './lighthouse';
import { benchPageWeight } from './page-weight';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { startPortal } from './support/portal';
import { printRows, type BenchRow } from './support/row';
import { signIn } from './support/sign-in';

/** Page weight and Lighthouse rows for /home and /welcome on a portal started for the purpose. */
export async function benchFirstPage(lighthouseRuns = 3): Promise<BenchRow[]> {
  const portal = await startPortal();
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const cookie = await signIn(await browser.newContext(), portal.url, 'jdoe').finally(() =>
      browser.close(),
    );
    return [
      ...(await benchPageWeight(portal.url, cookie)),
      ...(await benchLighthouse(portal.url, cookie, lighthouseRuns)),
    ];
  } finally {
    await portal.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printRows(await benchFirstPage(Number(process.argv[2] ?? 3)));
}
