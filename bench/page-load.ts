// Page-load timings of the built portal in Chromium: loads /home and /status_check of the portal at
// `baseUrl` in new browser contexts (cold cache) and reports the median of First Contentful Paint,
// DOMContentLoaded and load. (What the pages weigh is page-weight.ts's.) Needs /usr/bin/chromium.
import { chromium } from '@playwright/test';
import { quick } from './load';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { median, type BenchRow } from './table';

const RUNS = quick ? 3 : 10;

export async function benchPageLoad(baseUrl: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const path of ['/home', '/status_check']) {
      const fcp: number[] = [];
      const dcl: number[] = [];
      const load: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
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
        await context.close();
      }
      const note = `median of ${RUNS} cold loads`;
      rows.push(
        { figure: `${path} First Contentful Paint`, value: median(fcp), unit: 'ms', note },
        { figure: `${path} DOMContentLoaded`, value: median(dcl), unit: 'ms', note },
        { figure: `${path} load`, value: median(load), unit: 'ms', note },
      );
    }
    return rows;
  } finally {
    await browser.close();
  }
}
