// Lighthouse 12 (mobile, its default simulated throttling) from its node API against /usr/bin/chromium.
// Each page is audited `runs` times in a fresh Chromium; the median score is reported (single runs on a
// shared 2-core machine wander by a few points). /welcome is audited signed in: the session cookie is
// sent as an extra header, so Lighthouse's storage reset does not sign it out.
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { median, type BenchRow } from './table';

export interface LighthouseResult {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  /** Audits of either category that did not score full marks, for finding what to fix. */
  failing: string[];
}

/** Lighthouse ran but could not audit the page (its runtimeError): worth another run. */
class LighthouseRuntimeError extends Error {}

/** One Lighthouse run of `url` in a fresh Chromium. */
export async function runLighthouse(url: string, cookie?: string): Promise<LighthouseResult> {
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      ...(cookie ? { extraHeaders: { cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new LighthouseRuntimeError(`Lighthouse: ${lhr.runtimeError.message}`);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const refs = ['performance', 'accessibility'].flatMap((id) => lhr.categories[id]?.auditRefs ?? []);
    const failing = refs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => `${audit!.id} ${audit!.score} ${audit!.displayValue ?? ''}`.trim());
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      fcp: numeric('first-contentful-paint'),
      lcp: numeric('largest-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      speedIndex: numeric('speed-index'),
      failing,
    };
  } finally {
    chrome.kill();
  }
}

/**
 * runLighthouse, run again (at most twice more) when Lighthouse itself failed to record the page
 * (e.g. NO_NAVSTART on a starved CPU, "Please run Lighthouse again"): one such run used to end the bench.
 */
async function runLighthouseRetrying(url: string, cookie?: string): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLighthouse(url, cookie);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof LighthouseRuntimeError)) throw error;
      console.error(`${url}: ${error.message}; running it again`);
    }
  }
}

/** Rows for one page: median scores and metrics over `runs` audits. */
export async function lighthouseRows(
  label: string,
  url: string,
  cookie?: string,
  runs = 3,
): Promise<BenchRow[]> {
  const results: LighthouseResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await runLighthouseRetrying(url, cookie));
  const of = (key: Exclude<keyof LighthouseResult, 'failing'>) => median(results.map((r) => r[key]));
  const failing = [...new Set(results.flatMap((r) => r.failing))];
  if (failing.length > 0)
    console.error(`${label}: audits below full marks in some run: ${failing.join('; ')}`);
  const note = `median of ${runs}`;
  const timings = `FCP ${Math.round(of('fcp'))} ms, LCP ${Math.round(of('lcp'))} ms, TBT ${Math.round(of('tbt'))} ms (simulated)`;
  return [
    {
      figure: `${label} Lighthouse performance (mobile)`,
      value: of('performance'),
      unit: 'score',
      goal: { atLeast: 100 },
      note: `${note}; ${timings}`,
    },
    {
      figure: `${label} Lighthouse accessibility`,
      value: of('accessibility'),
      unit: 'score',
      goal: { atLeast: 100 },
      note,
    },
  ];
}

/** /home for a visitor and /welcome signed in with `welcomeCookie`. */
export async function benchLighthouse(baseUrl: string, welcomeCookie: string, runs = 3): Promise<BenchRow[]> {
  return [
    ...(await lighthouseRows('/home', `${baseUrl}/home`, undefined, runs)),
    ...(await lighthouseRows('/welcome', `${baseUrl}/welcome`, welcomeCookie, runs)),
  ];
}
