// Page-load timings of the built portal in Chromium: starts `node apps/server/dist/server.js` on a
// free port and a fresh data folder, loads /home and /status_check in new browser contexts (cold cache) and prints
// the median of First Contentful Paint, DOMContentLoaded, load, and the JavaScript bytes sent (compressed as the browser asks).
// Needs `npm run build` first and /usr/bin/chromium.
import { chromium } from '@playwright/test';
import { quick } from './load';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { startPortal } from './support/portal';
import type { BenchRow } from './table';

const RUNS = quick ? 3 : 10;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function benchPageLoad(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
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
      const note = `median of ${RUNS} cold loads`;
      rows.push(
        { figure: `${path} First Contentful Paint`, value: median(fcp), unit: 'ms', note },
        { figure: `${path} DOMContentLoaded`, value: median(dcl), unit: 'ms', note },
        { figure: `${path} load`, value: median(load), unit: 'ms', note },
        { figure: `${path} JS on the wire (.js responses)`, value: median(jsBytes) / 1024, unit: 'kB', note },
      );
    }
    return rows;
  } finally {
    await browser.close();
    await portal.stop();
  }
}
