// Page-load timings of the built portal in Chromium: starts `node apps/server/dist/server.js` on a
// free port and a fresh data folder, loads /home and /status_check in new browser contexts (cold cache) and prints
// the median of First Contentful Paint, DOMContentLoaded, load, and the JavaScript bytes sent (compressed as the browser asks).
// Needs `npm run build` first and /usr/bin/chromium.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { startPortal } from './support/portal';

const RUNS = 10;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function benchPageLoad(): Promise<void> {
  const portal = await startPortal();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const path of ['/home', '/status_check']) {
      const fcp: number[] = [];
      const dcl: number[] = [];
      const load: number[] = [];
      const jsBytes: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        // Every script until the network is idle (lazy chunks and modulepreloads too), each size
        // awaited before the context closes.
        const jsSizes: Array<Promise<number>> = [];
        page.on('response', (response) => {
          if (response.request().resourceType() === 'script')
            jsSizes.push(response.headerValue('content-length').then((length) => Number(length ?? 0)));
        });
        await page.goto(`${portal.url}${path}`, { waitUntil: 'load' });
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        const timing = await page.evaluate(() => {
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          return { fcp: paint?.startTime ?? 0, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
        });
        fcp.push(timing.fcp);
        dcl.push(timing.dcl);
        load.push(timing.load);
        jsBytes.push((await Promise.all(jsSizes)).reduce((a, b) => a + b, 0));
        await context.close();
      }
      console.log(
        `${path.padEnd(14)} FCP ${median(fcp).toFixed(0)} ms  DOMContentLoaded ${median(dcl).toFixed(0)} ms  load ${median(load).toFixed(0)} ms  JS ${(median(jsBytes) / 1000).toFixed(1)} kB on the wire until idle (${RUNS} cold loads)`,
      );
    }
  } finally {
    await browser.close();
    await portal.stop();
  }
}
