import type { AppContext } from '../platform/app-context';
import { samlIdentityProvider } from './saml-entities';

/**
 * The built-in IdP's SAML metadata (entityID, redirect SSO URL, signing certificate); served at
 * GET /idp/metadata and read by the portal's SP to configure itself in standalone mode.
 */
export function builtinIdpMetadata(ctx: AppContext): string {
  return samlIdentityProvider(ctx).getMetadata();
}
