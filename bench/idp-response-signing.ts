// The built-in IdP's signing of one SAML Response (the Assertion, then the Response), alone: CPU
// and wall time and memory allocated per warm call (bench/support/warm-calls.ts). CPU time is the
// figure to compare on a shared machine, where the sign-in bench's wall times follow the load.
//   node --import tsx bench/idp-response-signing.ts [calls per round]
import { createSignedResponse } from '../apps/server/src/idp/saml-response';
import { createTestApp } from '../apps/server/test/support/test-app';
import { printTable } from './table';
import { warmCallRows } from './support/warm-calls';

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
  printTable(
    await warmCallRows('IdP Response signing', calls, () => createSignedResponse(t.ctx, pending, account)),
  );
} finally {
  await t.close();
}
