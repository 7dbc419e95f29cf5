// The ACS's check of one SAML Response from the built-in IdP, alone: node-saml's validation (both
// signatures, conditions, the profile) and the portal's own checks of the documents, as
// completeSignIn runs them, without the database: CPU, wall time and memory allocated per warm call
// (bench/support/warm-calls.ts).
//   node --import tsx bench/acs-validation.ts [calls per round]
import { createSignedResponse } from '../apps/server/src/idp/saml-response';
import { createServiceProvider, spEndpoints } from '../apps/server/src/identity/saml-sp';
import { checkAddressedToUs } from '../apps/server/src/features/session/saml-checks';
import { createTestApp } from '../apps/server/test/support/test-app';
import { printTable } from './table';
import { warmCallRows } from './support/warm-calls';

const calls = Number(process.argv[2] ?? 300);

const t = await createTestApp('pglite');
try {
  const samlResponse = createSignedResponse(
    t.ctx,
    { requestId: '_bench-request', relayState: '/welcome' },
    { username: 'benchvendor', givenName: 'Vera', familyName: 'Vendor & Co', email: 'v@example.test' },
  );
  // `consumedLater`: the request id is taken as live, as at the ACS (the consume is a statement).
  const sp = createServiceProvider(t.ctx.config, t.ctx.db, t.ctx.keys.sp, t.ctx.idp, { consumedLater: true });
  const { acsUrl } = spEndpoints(t.ctx.config.publicUrl);
  const check = async () => {
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse });
    const response = profile?.getSamlResponseXml?.();
    const assertion = profile?.getAssertionXml?.();
    if (!response || !assertion) throw new Error('no documents in the profile');
    checkAddressedToUs(response, assertion, { acsUrl, idpEntityId: t.ctx.idp.entityId });
  };
  printTable(await warmCallRows('ACS response check', calls, check));
} finally {
  await t.close();
}
