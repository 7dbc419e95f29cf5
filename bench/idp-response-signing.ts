// The built-in IdP's signing of one SAML Response (the Assertion, then the Response), alone: CPU
// and wall time per call, warm, in three rounds. CPU time is the figure to compare on a shared
// machine, where the sign-in bench's wall times follow the load.
//   node --import tsx bench/idp-response-signing.ts [calls per round]
import { createSignedResponse } from '../apps/server/src/idp/saml-response';
import { createTestApp } from '../apps/server/test/support/test-app';
import { printTable } from './table';

const calls = Number(process.argv[2] ?? 300);
const t = await createTestApp('pglite');
try {
  const account = {
    username: 'benchvendor',
    givenName: 'Vera',
    familyName: 'Vendor & Co',
    email: 'v@example.test',
  };
  const pending = { requestId: '_bench-request', relayState: '/welcome' };
  const run = (n: number) => {
    for (let i = 0; i < n; i++) createSignedResponse(t.ctx, pending, account);
  };
  run(100); // warm-up
  const rounds = [1, 2, 3].map(() => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    run(calls);
    const used = process.cpuUsage(cpu);
    return { cpu: (used.user + used.system) / 1000 / calls, wall: (performance.now() - start) / calls };
  });
  const best = (key: 'cpu' | 'wall') => Math.min(...rounds.map((r) => r[key]));
  printTable([
    {
      figure: 'IdP Response signing, CPU per call',
      value: best('cpu'),
      unit: 'ms',
      note: `best of 3 rounds of ${calls}`,
    },
    {
      figure: 'IdP Response signing, wall per call',
      value: best('wall'),
      unit: 'ms',
      note: 'follows the load',
    },
  ]);
} finally {
  await t.close();
}
