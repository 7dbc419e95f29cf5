import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import client from 'prom-client';
import type { PoolStats } from './db';
import { version } from './version';

/**
 * The portal's Prometheus metrics. One registry per process (an instance is one process); the
 * gauges that describe the database and the outbox read them at scrape time from the sources
 * the running app binds, so nothing polls between scrapes.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: '' }); // memory, event-loop lag, GC, handles

/** Which build answers: package.json's version and the Node.js runtime, as labels of a constant 1. */
new client.Gauge({
  name: 'pra_build_info',
  help: 'The running build: version (package.json) and Node.js runtime; always 1',
  labelNames: ['version', 'node'] as const,
  registers: [registry],
}).set({ version, node: process.version }, 1);

/** The outbox at a glance (store/outbox.ts's readOutboxState). */
interface OutboxState {
  pending: number;
  undeliverable: number;
  oldestPendingSeconds: number;
}

/** What the audit counters read of a committed audit event (identity/audit.ts's AuditEvent). */
interface CountedAuditEvent {
  action: string;
  outcome: string;
  details?: Record<string, unknown>;
}

interface Sources {
  /** Reads the outbox's state, once per scrape. */
  outboxState(): Promise<OutboxState>;
  /** The pool's counters; null on PGlite, which has no pool (one connection handed out in turn). */
  poolStats(): PoolStats | null;
}
let sources: Sources | null = null;

/** Points the scrape-time gauges at the running app's database and pool. */
export function bindMetricsSources(next: Sources): void {
  sources = next;
}

const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface DurationSeries {
  labels: { method: string; route: string; status_code: string };
  /** Observations per bucket (not cumulative): counts[i] fell in (bound[i-1], bound[i]]. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * The request-duration histogram. Every request observes it, so it keeps its series in a map
 * found by one string key: prom-client's Histogram built a labels object, a closure and a label
 * key and checked the labels on each observation. It is read at scrape time like any other
 * metric (the registry asks for `get()`), in the same exposition a prom-client histogram gives.
 */
export class RequestDurations {
  readonly name = 'pra_http_request_duration_seconds';
  readonly help = 'Time to answer an HTTP request, by route pattern (never the raw URL), method and status';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, DurationSeries>();

  observe(method: string, route: string, statusCode: number, seconds: number): void {
    const key = `${method} ${statusCode} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { method, route, status_code: String(statusCode) },
        counts: durationBuckets.map(() => 0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    series.sum += seconds;
    series.count += 1;
    for (let i = 0; i < durationBuckets.length; i++) {
      if (seconds <= durationBuckets[i]!) {
        series.counts[i]! += 1;
        break;
      }
    }
  }

  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      durationBuckets.forEach((le, i) => {
        cumulative += counts[i]!;
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    });
  }

  reset(): void {
    this.series.clear();
  }
}

export const httpDuration = new RequestDurations();
registry.registerMetric(httpDuration as unknown as client.Metric);

const signIns = new client.Counter({
  name: 'pra_signin_attempts_total',
  help: 'Sign-in outcomes: step sp (the SAML ACS), password or mfa (built-in IdP), with the reason of a failure',
  labelNames: ['step', 'outcome', 'reason'] as const,
  registers: [registry],
});

const lockouts = new client.Counter({
  name: 'pra_signin_lockouts_total',
  help: 'Accounts locked after too many failed sign-ins',
  registers: [registry],
});

const auditEvents = new client.Counter({
  name: 'pra_audit_events_total',
  help: 'Committed audit events by action and outcome',
  labelNames: ['action', 'outcome'] as const,
  registers: [registry],
});

/** A reason from a closed vocabulary stays a label; free text (e.g. a parser's message) does not. */
function reasonLabel(reason: unknown): string {
  if (typeof reason !== 'string' || reason === '') return 'none';
  return /^[A-Za-z][A-Za-z ._-]{0,59}$/.test(reason) ? reason : 'other';
}

const signInSteps: Record<string, string> = {
  signin: 'sp',
  'signin.password': 'password',
  'signin.mfa': 'mfa',
};

/** Counts a committed audit event (called by the audit trail after commit). */
export function observeAudit(event: CountedAuditEvent): void {
  auditEvents.inc({ action: event.action, outcome: event.outcome });
  if (event.action === 'signin.lockout') lockouts.inc();
  const step = signInSteps[event.action];
  if (step) {
    const reason = event.outcome === 'success' ? 'none' : reasonLabel(event.details?.reason);
    signIns.inc({ step, outcome: event.outcome, reason });
  }
}

const spCertificateExpiry = new client.Gauge({
  name: 'pra_saml_sp_certificate_expiry_timestamp_seconds',
  help: "When the SAML service provider's certificate expires (Unix time): alert well before it, sign-ins stop then",
  registers: [registry],
});

/** Records the end of the SP certificate in use (set at start). */
export function observeSpCertificate(expiresAt: Date): void {
  spCertificateExpiry.set(Math.floor(expiresAt.getTime() / 1000));
}

const directoryDrift = new client.Gauge({
  name: 'pra_directory_drift',
  help: "Differences between the portal and the hospital's directory at the last reconciliation (0: none)",
  registers: [registry],
});

/** Records the last reconciliation's drift (admin directory-reconcile and the scheduled run). */
export function observeDirectoryDrift(drift: number): void {
  directoryDrift.set(drift);
}

new client.Gauge({
  name: 'pra_outbox_pending',
  help: 'Mails waiting to be sent',
  registers: [registry],
  async collect() {
    await setFromOutbox(this, (state) => state.pending);
  },
});
new client.Gauge({
  name: 'pra_outbox_oldest_pending_age_seconds',
  help: 'Age of the oldest mail waiting to be sent (0: none waits)',
  registers: [registry],
  async collect() {
    await setFromOutbox(this, (state) => state.oldestPendingSeconds);
  },
});
new client.Gauge({
  name: 'pra_outbox_undeliverable',
  help: 'Mails the relay refused for good (status undeliverable)',
  registers: [registry],
  async collect() {
    await setFromOutbox(this, (state) => state.undeliverable);
  },
});

/** Sets a gauge from the outbox; with the database down the gauge is left out of the scrape. */
async function setFromOutbox(gauge: client.Gauge, pick: (state: OutboxState) => number): Promise<void> {
  if (!sources) return;
  try {
    gauge.set(pick(await outbox()));
  } catch {
    gauge.reset();
  }
}

/** One outbox query per scrape, shared by its three gauges. */
let outboxRead: { at: number; value: Promise<OutboxState> } | null = null;
function outbox(): Promise<OutboxState> {
  const now = Date.now();
  if (!outboxRead || now - outboxRead.at > 1_000) {
    const value = (sources as Sources).outboxState();
    outboxRead = { at: now, value };
    // A failed read is not kept: the next scrape asks again.
    value.catch(() => (outboxRead = null));
  }
  return outboxRead.value;
}

new client.Gauge({
  name: 'pra_db_pool_connections',
  help: 'PostgreSQL pool connections by state (in_use, idle, total); absent on the embedded database',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const pool = sources?.poolStats();
    if (!pool) return;
    this.set({ state: 'total' }, pool.size);
    this.set({ state: 'idle' }, pool.idle);
    this.set({ state: 'in_use' }, pool.size - pool.idle);
  },
});
new client.Gauge({
  name: 'pra_db_pool_waiting',
  help: 'Queries waiting for a free PostgreSQL pool connection',
  registers: [registry],
  collect() {
    const pool = sources?.poolStats();
    if (pool) this.set(pool.waiting);
  },
});

/**
 * The kernel's count of connections dropped because a listening socket's accept queue was full,
 * in this network namespace (Linux's TcpExt ListenOverflows), or undefined when `netstat` (the
 * text of /proc/net/netstat) does not have it.
 */
export function listenOverflows(netstat: string): number | undefined {
  const lines = netstat.split('\n').filter((line) => line.startsWith('TcpExt:'));
  const names = lines[0]?.split(/\s+/);
  const values = lines[1]?.split(/\s+/);
  const at = names?.indexOf('ListenOverflows') ?? -1;
  const value = at > 0 ? Number(values?.[at]) : NaN;
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * On a host that starves the portal of CPU, callers queue in the kernel before the portal reads
 * them, where load shedding cannot see them (docs/OPERATIONS.md "Load shedding"): the kernel's
 * drops are the sign. Read at scrape time; not registered where there is no /proc/net/netstat.
 */
const netstatPath = '/proc/net/netstat';
if (existsSync(netstatPath)) {
  new client.Counter({
    name: 'pra_kernel_listen_overflows_total',
    help: "Connections the kernel dropped because a listening socket's accept queue was full, in this instance's network namespace (Linux TcpExt ListenOverflows)",
    registers: [registry],
    async collect() {
      const value = await readFile(netstatPath, 'utf8').then(listenOverflows, () => undefined);
      this.reset();
      if (value !== undefined) this.inc(value);
    },
  });
}

/** The exposition text; a failing source (database down) leaves its gauges out, never the rest. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
