// Page-load timings of the built portal in Chromium: starts `node apps/server/dist/server.js` on a
// fresh data folder, loads /home and /status_check in new browser contexts (cold cache) and prints
// the median of First Contentful Paint, DOMContentLoaded, load, and the JavaScript bytes sent (compressed as the browser asks).
// Needs `npm run build` first and /usr/bin/chromium.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { quick } from './load';
import { freePort } from './processes';
import type { BenchRow } from './table';

const RUNS = quick ? 3 : 10;

async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`server at ${url} did not start`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function benchPageLoad(): Promise<BenchRow[]> {
  const PORT = await freePort();
  const rows: BenchRow[] = [];
  const server = spawn('node', ['apps/server/dist/server.js'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pra-bench-')),
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    await waitForServer(`http://localhost:${PORT}/api/service_check`);
    for (const path of ['/home', '/status_check']) {
      const fcp: number[] = [];
      const dcl: number[] = [];
      const load: number[] = [];
      const jsBytes: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        let js = 0;
        page.on('response', async (response) => {
          if (response.url().endsWith('.js'))
            js += Number((await response.headerValue('content-length')) ?? 0);
        });
        await page.goto(`http://localhost:${PORT}${path}`, { waitUntil: 'load' });
        await page.getByRole('heading', { level: 1 }).waitFor();
        const timing = await page.evaluate(() => {
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          return { fcp: paint?.startTime ?? 0, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
        });
        fcp.push(timing.fcp);
        dcl.push(timing.dcl);
        load.push(timing.load);
        jsBytes.push(js);
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
    server.kill('SIGTERM');
  }
}
