// Page weight of /home from Chromium's own network log: every script and stylesheet response the
// browser receives from a cold start until the network is idle (modulepreloads and lazy chunks
// included). For each: the bytes as sent (Chromium asks for brotli; the server has it precompressed)
// and the gzip size, asked of the server separately with Accept-Encoding: gzip.
// Needs `npm run build` first and /usr/bin/chromium. kB = 1000 bytes, as Vite prints them.
import { get } from 'node:http';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import type { BenchRow } from './table';

export interface AssetLoad {
  url: string;
  type: 'script' | 'stylesheet';
  /** Declared in the HTML itself (a stylesheet there blocks the first paint). */
  fromHtml: boolean;
  /** Body bytes as sent to Chromium (its Content-Length, else wire bytes less headers). */
  sent: number;
  encoding: string;
  /** Body bytes when the server is asked for gzip. */
  gzip: number;
}

interface Pending {
  url: string;
  type: AssetLoad['type'];
  fromHtml: boolean;
  contentLength?: number;
  headerBytes?: number;
  encoding?: string;
}

/** Loads `url` in a fresh context (cold cache) and lists every script and stylesheet it fetched. */
export async function assetLoads(browser: Browser, url: string, cookie?: string): Promise<AssetLoad[]> {
  const context = await browser.newContext();
  if (cookie) await context.setExtraHTTPHeaders({ cookie });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const pending = new Map<string, Pending>();
  const finished: Array<Pending & { wire: number }> = [];
  cdp.on('Network.requestWillBeSent', ({ requestId, request, type, initiator }) => {
    if (type !== 'Script' && type !== 'Stylesheet') return;
    pending.set(requestId, {
      url: request.url,
      type: type === 'Script' ? 'script' : 'stylesheet',
      fromHtml: initiator.type === 'parser',
    });
  });
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const entry = pending.get(requestId);
    if (!entry) return;
    const header = (name: string) =>
      Object.entries(response.headers).find(([key]) => key.toLowerCase() === name)?.[1];
    const length = header('content-length');
    if (length !== undefined) entry.contentLength = Number(length);
    entry.encoding = header('content-encoding') ?? 'identity';
    entry.headerBytes = response.encodedDataLength;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const entry = pending.get(requestId);
    if (entry) finished.push({ ...entry, wire: encodedDataLength });
  });
  await cdp.send('Network.enable');
  await page.goto(url, { waitUntil: 'networkidle' });
  // Under a starved CPU the network can fall idle before the page has rendered and asked for its
  // lazy chunks: wait for the page's heading, then for the network to stay quiet a moment.
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForTimeout(750);
  await context.close();

  return Promise.all(
    finished.map(async (entry) => ({
      url: entry.url,
      type: entry.type,
      fromHtml: entry.fromHtml,
      sent: entry.contentLength ?? entry.wire - (entry.headerBytes ?? 0),
      encoding: entry.encoding ?? 'identity',
      gzip: await gzipSize(entry.url, cookie),
    })),
  );
}

/** Body bytes of `url` when gzip is asked for, counted raw (fetch would inflate them). */
function gzipSize(url: string, cookie?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { 'accept-encoding': 'gzip', ...(cookie ? { cookie } : {}) };
    get(url, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    }).on('error', reject);
  });
}

const kB = (bytes: number) => Math.round(bytes / 100) / 10;
const sum = (loads: AssetLoad[], key: 'sent' | 'gzip') => loads.reduce((total, l) => total + l[key], 0);

/** The bench rows for one page (`label`, e.g. '/home'); `jsGoal` in kB gzip when the page has one. */
export function pageWeightRows(label: string, loads: AssetLoad[], jsGoal?: number): BenchRow[] {
  const js = loads.filter((l) => l.type === 'script');
  const blockingCss = loads.filter((l) => l.type === 'stylesheet' && l.fromHtml);
  const laterCss = loads.filter((l) => l.type === 'stylesheet' && !l.fromHtml);
  return [
    {
      figure: `${label} JS until network idle, gzip`,
      value: kB(sum(js, 'gzip')),
      unit: 'kB',
      ...(jsGoal !== undefined ? { goal: { atMost: jsGoal } } : {}),
      note: `${js.length} files; ${kB(sum(js, 'sent'))} kB as sent (${[...new Set(js.map((l) => l.encoding))].join(', ')})`,
    },
    {
      figure: `${label} render-blocking CSS, gzip`,
      value: kB(sum(blockingCss, 'gzip')),
      unit: 'kB',
      goal: { text: 'used rules only' },
      note: `${blockingCss.length} files; ${kB(sum(laterCss, 'gzip'))} kB more loaded later`,
    },
  ];
}

/** /home as a new visitor sees it, and /welcome signed in when `welcomeCookie` is given. */
export async function benchPageWeight(baseUrl: string, welcomeCookie?: string): Promise<BenchRow[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const rows = pageWeightRows('/home', await assetLoads(browser, `${baseUrl}/home`), 90);
    if (welcomeCookie) {
      rows.push(
        ...pageWeightRows('/welcome', await assetLoads(browser, `${baseUrl}/welcome`, welcomeCookie)),
      );
    }
    return rows;
  } finally {
    await browser.close();
  }
}
