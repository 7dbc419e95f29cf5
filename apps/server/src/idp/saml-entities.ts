import type { AppContext } from '../platform/app-context';
import { spEndpoints } from '../identity/saml-sp';

/**
 * The addresses both sides of the portal's own SAML exchange agree on: the SP's as the SP makes
 * them, the IdP's from the description the SP trusts (the built-in one whenever these routes run).
 */
export function samlUrls(ctx: AppContext) {
  const sp = spEndpoints(ctx.config.publicUrl);
  return {
    spEntityId: sp.entityId,
    acsUrl: sp.acsUrl,
    idpEntityId: ctx.idp.entityId,
    ssoUrl: ctx.idp.ssoUrl,
  };
}
