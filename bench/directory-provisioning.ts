// npm run bench:directory -- [changes] [backlog]
// The provisioning outbox against a real OpenLDAP (Debian's slapd, started here on a free port):
// (1) latency from a role change's commit to the directory (the worker polling as in production),
// p50/p99 over `changes` changes made one at a time; (2) the drain rate of a backlog of `backlog`
// vendors changed while the directory was stopped, from its return to the last row applied.
// Embedded database (PGlite). Figures taken on a shared, loaded machine are not measurements.
import { roleName } from '@pra/contracts';
import { loadConfig } from '../apps/server/src/config';
import { createTestDatabase } from '../apps/server/test/support/databases';
import { startSlapd } from '../apps/server/test/support/slapd';
import { createIdentityStore } from '../apps/server/src/platform/directory/create-store';
import { setDirectoryProvisioning } from '../apps/server/src/store/provisioning';
import { startProvisioningWorker } from '../apps/server/src/identity/directory/provisioning-worker';
import { systemClock } from '../apps/server/src/platform/clock';

const [changes = '50', backlog = '200'] = process.argv.slice(2);
const slapd = await startSlapd();
const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/pra-bench-unused', ...slapd.env });
const database = await createTestDatabase('pglite');
const db = database.db;
await setDirectoryProvisioning(db, true);
const store = createIdentityStore(config);
const org = await db
  .insertInto('organizations')
  .values({ name: 'Bench Org' })
  .returning('id')
  .executeTakeFirstOrThrow();
const vendor = async (username: string) =>
  (
    await db
      .insertInto('accounts')
      .values({
        username,
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

const worker = startProvisioningWorker(db, store, systemClock, { intervalMs: 100 });
const latencies: number[] = [];
for (let i = 0; i < Number(changes); i += 1) {
  const id = await vendor(`lat${i}`);
  await until(async () => (await pending()) === 0);
  const started = performance.now();
  await db
    .insertInto('role_grants')
    .values({ account_id: id, organization_id: org.id, granted_by: null, request_item_id: null })
    .execute();
  await until(async () => (await pending()) === 0);
  latencies.push(performance.now() - started);
}
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(0);
console.log(
  `commit → directory (${changes} role grants, worker polling every 100 ms): p50 ${pct(50)} ms, p99 ${pct(99)} ms`,
);

await slapd.stop();
for (let i = 0; i < Number(backlog); i += 1) {
  const id = await vendor(`drain${i}`);
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
console.log(
  `backlog of ${waiting} changes after an outage: drained in ${seconds.toFixed(1)} s (${(waiting / seconds).toFixed(0)} changes/s), group ${roleName('Bench Org')}`,
);
await worker.stop();
await database.close();
await slapd.close();
