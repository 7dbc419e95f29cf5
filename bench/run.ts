// npm run bench: the hot paths against their goals (issue 9), in one table. Throughput is
// measured from outside with autocannon against the built server in a child process, beside a
// bare fastify hello-world measured the same way in the same run; sign-in is the sum of the
// server's own time over every step; memory is the server process's RSS; page weight and
// Lighthouse come from Chromium (first-page.ts), then the outbox drain rate and page-load timings.
// BENCH_QUICK=1 shortens the load runs and audits once for development. Needs `npm run build`
// first (npm run bench does it).
import { hashPassword, verifyPassword } from '../apps/server/src/identity/passwords';
import { benchAudit } from './audit';
import { benchOutboxDrain } from './outbox-drain';
import { benchGovernanceSweep } from './governance-sweep';
import { benchAccessReviews } from './access-reviews';
import { benchVendorAccessReport } from './vendor-access-report';
import { loadDescription, quick } from './load';
import {
  anchor,
  createBenchDatabase,
  portal,
  production,
  standalone,
  throughputRows,
  type PortalFigures,
} from './portals';
import { benchFirstPage } from './first-page';
import { benchPageLoad } from './page-load';
import { benchSignIn } from './sign-in';
import { benchSignInWithPasskey } from './sign-in-passkey';
import { startPortal } from './support/portal';
import { benchStarvedShedding } from './shedding-starved';
import { benchReadyAfterStart } from './ready-after-start';
import { median, printTable, type BenchRow } from './table';

const rows: BenchRow[] = [];

function memoryRows(p: PortalFigures, goals: boolean): BenchRow[] {
  return [
    {
      figure: `RSS idle, ${p.label}`,
      value: p.idleRss,
      unit: 'MB',
      ...(goals ? { goal: { atMost: 150 } } : {}),
      note: 'a restart, after one sign-in',
    },
    {
      figure: `RSS peak under load, ${p.label}`,
      value: p.user.peakRssMb,
      unit: 'MB',
      ...(goals ? { goal: { atMost: 300 } } : {}),
      note: 'during the GET /api/user run',
    },
    { figure: `start until first answer, ${p.label}`, value: p.start, unit: 'ms', note: 'a restart' },
    {
      figure: `first start until first answer, ${p.label}`,
      value: p.firstStart.start,
      unit: 'ms',
      note: 'creates the database, demo data',
    },
    {
      figure: `RSS after the first start, ${p.label}`,
      value: p.firstStart.rss,
      unit: 'MB',
      note: `settled, 5 s after it answered (most in those 5 s: ${Math.round(p.firstStart.peakRss)} MB); before any sign-in`,
    },
  ];
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

console.log(`bench: ${loadDescription}${quick ? ' (BENCH_QUICK: indicative only)' : ''}`);
const database = await createBenchDatabase();
try {
  const first = await anchor();
  const figures: PortalFigures[] = [];
  if (database) figures.push(await portal('PostgreSQL, production', production(database.url), true));
  figures.push(await portal('PGlite, standalone', standalone, false));
  const last = await anchor();
  const anchorRps = (first.requestsPerSecond + last.requestsPerSecond) / 2;
  rows.push({
    figure: 'bare fastify hello-world (anchor)',
    value: anchorRps,
    unit: 'req/s',
    note: `mean of ${first.requestsPerSecond.toFixed(0)} (first) and ${last.requestsPerSecond.toFixed(0)} (last); p99 ${last.p99Ms} ms`,
  });
  if (!database) {
    rows.push({
      figure: 'PostgreSQL figures',
      value: null,
      unit: '',
      goal: {},
      note: 'no PostgreSQL answered',
    });
  }
  for (const p of figures) rows.push(...throughputRows(p, anchorRps, p.label.startsWith('PostgreSQL')));
  for (const p of figures) rows.push(...memoryRows(p, p.label.startsWith('PostgreSQL')));

  const signInRuns = quick ? 5 : 20;
  rows.push(...(await benchSignIn('pglite', signInRuns)));
  rows.push(...(await benchSignInWithPasskey('pglite', signInRuns)));
  if (database) {
    process.env.TEST_DATABASE_URL = database.url;
    rows.push(...(await benchSignIn('postgres', signInRuns)));
    rows.push(...(await benchSignInWithPasskey('postgres', signInRuns)));
  }
  const hash = await hashPassword('Bench-Password-42');
  rows.push({
    figure: 'argon2id verify (m=19456, t=2)',
    value: await timeIt(10, () => verifyPassword(hash, 'Bench-Password-42')),
    unit: 'ms',
    note: 'part of the password step; cost set by the architecture',
  });

  // Before the PostgreSQL database goes: the drain runs on it when there is one.
  rows.push(...(await benchOutboxDrain()));
  rows.push(...(await benchGovernanceSweep()));
  rows.push(...(await benchAccessReviews()));
  rows.push(...(await benchVendorAccessReport()));
  // Load shedding on a CPU-starved host, on and off (PostgreSQL only: the embedded database never sheds).
  if (database) rows.push(...(await benchStarvedShedding(database.url, quick ? 1 : 3, quick ? 4 : 8)));
  // Ready means ready: no 503 in the 5 s after each of 10 restarts says ready (PostgreSQL only, as above).
  if (database) rows.push(...(await benchReadyAfterStart(database.url, quick ? 3 : 10)));
  // The audit trail at scale (on PostgreSQL when there is one; quick runs use fewer events).
  if (quick) process.env.AUDIT_BENCH_EVENTS ??= '100000';
  for (const row of await benchAudit()) {
    const atMost = /^≤ (\d+) ms$/.exec(row.goal);
    rows.push({
      figure: row.name,
      value: row.value,
      unit: row.unit,
      goal: atMost ? { atMost: Number(atMost[1]) } : { text: row.goal },
    });
  }

  const browserPortal = await startPortal();
  try {
    rows.push(...(await benchFirstPage(browserPortal.url, quick ? 1 : 3)));
    rows.push(...(await benchPageLoad(browserPortal.url)));
  } finally {
    await browserPortal.stop();
  }
} finally {
  await database?.drop();
}

console.log('');
printTable(rows);
