// npm run bench:directory -- [vendors] [backlog]
// The provisioning outbox against a real OpenLDAP (Debian's slapd, started here on a free port),
// the worker running as in production (polling every second, PROVISIONING_BENCH_INTERVAL_MS to
// change it):
// (1) per operation, the latency from the change's commit to the directory holding it, p50/p99
//     over `vendors` vendors (default 30) taken one at a time through: new account, role grant,
//     disable, enable, role removal, terminate, each committed at a random moment of the worker's
//     cycle (so the figure includes the wait for its next round, as in production);
// (2) the drain of a backlog of `backlog` changes (default the 1,000: one role grant for
//     each of that many vendors new to the directory) queued while slapd was stopped, from its
//     return to the last row applied.
// Embedded database (PGlite), or PostgreSQL with BENCH_DATABASE=postgres and TEST_DATABASE_URL.
// Figures taken on a shared, loaded machine are not measurements.
import { roleName } from '@pra/contracts';
import { loadConfig } from '../apps/server/src/config';
import { createTestDatabase } from '../apps/server/test/support/databases';
import { startSlapd } from '../apps/server/test/support/slapd';
import { createIdentityStore } from '../apps/server/src/platform/directory/create-store';
import { setDirectoryProvisioning } from '../apps/server/src/store/provisioning';
import { startProvisioningWorker } from '../apps/server/src/identity/directory/provisioning-worker';
import { systemClock } from '../apps/server/src/platform/clock';

const [vendors = '30', backlog = '1000'] = process.argv.slice(2);
const intervalMs = Number(process.env.PROVISIONING_BENCH_INTERVAL_MS ?? 1000);
const kind = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const slapd = await startSlapd();
const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/pra-bench-unused', ...slapd.env });
const database = await createTestDatabase(kind);
const db = database.db;
await setDirectoryProvisioning(db, true);
const store = createIdentityStore(config);
const org = await db
  .insertInto('organizations')
  .values({ name: 'Bench Org' })
  .returning('id')
  .executeTakeFirstOrThrow();
const insertVendor = async (username: string) =>
  (
    await db
      .insertInto('accounts')
      .values({
        username,
        given_name: 'Bench',
        family_name: username,
        email: `${username}@bench.example`,
        type: 'vendor',
        status: 'active',
        password_hash: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
const pending = async () =>
  Number(
    (
      await db
        .selectFrom('provisioning')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow()
    ).n,
  );
const until = async (done: () => Promise<boolean>) => {
  while (!(await done())) await new Promise((r) => setTimeout(r, 5));
};
const status = (id: string, value: 'active' | 'disabled' | 'terminated') =>
  db.updateTable('accounts').set({ status: value }).where('id', '=', id).execute();

/** Each operation, as the portal's features commit it (the triggers queue the row). */
const operations: [string, (id: () => string, username: string) => Promise<unknown>][] = [];
let current = '';
operations.push(
  ['new account', async (_id, username) => (current = await insertVendor(username))],
  [
    'role grant',
    (id) =>
      db
        .insertInto('role_grants')
        .values({ account_id: id(), organization_id: org.id, granted_by: null, request_item_id: null })
        .execute(),
  ],
  ['disable', (id) => status(id(), 'disabled')],
  ['enable', (id) => status(id(), 'active')],
  ['role removal', (id) => db.deleteFrom('role_grants').where('account_id', '=', id()).execute()],
  ['terminate', (id) => status(id(), 'terminated')],
);

const worker = startProvisioningWorker(db, store, systemClock, { intervalMs });
const latencies = new Map<string, number[]>(operations.map(([name]) => [name, []]));
for (let i = 0; i < Number(vendors); i += 1) {
  for (const [name, run] of operations) {
    await until(async () => (await pending()) === 0);
    // A change comes at any moment of the worker's cycle, not right after its last round.
    await new Promise((r) => setTimeout(r, Math.random() * intervalMs));
    const started = performance.now();
    await run(() => current, `lat${i}`);
    await until(async () => (await pending()) === 0);
    latencies.get(name)!.push(performance.now() - started);
  }
}
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(0);
};
console.log(
  `commit → directory, ${vendors} vendors one at a time, ${kind}, worker polling every ${intervalMs} ms:`,
);
for (const [name, values] of latencies) {
  console.log(
    `  ${name.padEnd(13)} p50 ${pct(values, 50).padStart(5)} ms   p99 ${pct(values, 99).padStart(5)} ms`,
  );
}

// The backlog: vendors the directory does not know yet (made with the triggers off), then a role
// grant each while the directory is down, so every queued row is one change with its own effect.
await setDirectoryProvisioning(db, false);
const ids: string[] = [];
for (let i = 0; i < Number(backlog); i += 1) ids.push(await insertVendor(`drain${i}`));
await setDirectoryProvisioning(db, true);
await slapd.stop();
for (const id of ids) {
  await db
    .insertInto('role_grants')
    .values({ account_id: id, organization_id: org.id, granted_by: null, request_item_id: null })
    .execute();
}
const waiting = await pending();
await slapd.start();
const back = performance.now();
await until(async () => (await pending()) === 0);
const seconds = (performance.now() - back) / 1000;
const members = (await store.listGroups()).get(roleName('Bench Org'))?.length ?? 0;
console.log(
  `backlog of ${waiting} changes after an outage: drained in ${seconds.toFixed(1)} s (${(waiting / seconds).toFixed(0)} changes/s); ${members} members in ${roleName('Bench Org')}`,
);
await worker.stop();
await store.close();
await database.close();
await slapd.close();
