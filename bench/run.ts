// npm run bench: measures the portal's hot paths in-process on the embedded database.
// Prints median and p95 per operation; nothing here asserts, it only measures.
import { performance } from 'node:perf_hooks';
import { hashPassword, verifyPassword } from '../apps/server/src/identity/passwords';
import { createAccount, signInAs } from '../apps/server/test/support/sign-in';
import { createTestApp, TestClient } from '../apps/server/test/support/test-app';
import { benchAudit } from './audit';
import { benchOutboxDrain } from './outbox-drain';
import { benchPageLoad } from './page-load';

async function measure(name: string, runs: number, fn: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < Math.min(5, runs); i++) await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  console.log(
    `${name.padEnd(44)} median ${at(0.5).toFixed(2).padStart(8)} ms   p95 ${at(0.95).toFixed(2).padStart(8)} ms   (${runs} runs)`,
  );
}

const started = performance.now();
const t = await createTestApp('pglite');
console.log(`app on a fresh embedded database: ${(performance.now() - started).toFixed(0)} ms`);
await createAccount(t, { username: 'benchvendor' });
const anonymous = new TestClient(t.app);
await anonymous.fetchCsrf();
const signedIn = await signInAs(t, 'benchvendor');

await measure('GET /api/csrf (existing session)', 300, () => anonymous.get('/api/csrf'));
await measure('GET /api/saml/is-authenticated', 300, () => signedIn.get('/api/saml/is-authenticated'));
await measure('GET /api/user', 300, () => signedIn.get('/api/user'));
await measure('GET /api/system/message', 300, () => anonymous.get('/api/system/message'));
await measure('full SAML sign-in (login + ACS)', 50, () => signInAs(t, 'benchvendor'));
const hash = await hashPassword('Bench-Password-42');
await measure('argon2id hash (m=19456, t=2)', 20, () => hashPassword('Bench-Password-42'));
await measure('argon2id verify', 20, () => verifyPassword(hash, 'Bench-Password-42'));
await t.close();

await benchOutboxDrain();

console.log('\nPage loads in Chromium (built server, standalone):');
await benchPageLoad();

console.log('\nAudit trail at scale:');
for (const row of await benchAudit()) {
  console.log(
    `${row.name.padEnd(56)} ${String(row.value).padStart(10)} ${row.unit.padEnd(3)} goal ${row.goal}`,
  );
}
