import type { AppContext } from '../platform/app-context';
import { certBody } from '../platform/keys';
import { samlUrls } from './saml-entities';
import { element, serialize } from './xml-tree';

const NAMESPACES = {
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
};
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const UNSPECIFIED_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

const documents = new WeakMap<AppContext, string>();

/**
 * The built-in IdP's SAML metadata: its entityID, that it wants AuthnRequests signed, its signing
 * certificate, the NameID format it sends and its HTTP-Redirect SSO URL, in the order the metadata
 * schema puts them (KeyDescriptor, NameIDFormat, SingleSignOnService). Served at GET /idp/metadata
 * and read by the portal's SP to configure itself in standalone mode. Written once per app.
 */
export function builtinIdpMetadata(ctx: AppContext): string {
  const cached = documents.get(ctx);
  if (cached) return cached;
  const keys = ctx.keys.idp;
  if (!keys) throw new Error('the built-in IdP has no signing key');
  const urls = samlUrls(ctx);
  const certificate = element(
    'md:KeyDescriptor',
    [['use', 'signing']],
    [
      element(
        'ds:KeyInfo',
        [],
        [element('ds:X509Data', [], [element('ds:X509Certificate', [], [certBody(keys.certPem)])])],
      ),
    ],
  );
  const descriptor = element(
    'md:IDPSSODescriptor',
    [
      ['WantAuthnRequestsSigned', 'true'],
      ['protocolSupportEnumeration', 'urn:oasis:names:tc:SAML:2.0:protocol'],
    ],
    [
      certificate,
      element('md:NameIDFormat', [], [UNSPECIFIED_NAME_ID]),
      element('md:SingleSignOnService', [
        ['Binding', REDIRECT_BINDING],
        ['Location', urls.ssoUrl],
      ]),
    ],
  );
  const xml = serialize(
    element('md:EntityDescriptor', [['entityID', urls.idpEntityId]], [descriptor], NAMESPACES),
  );
  documents.set(ctx, xml);
  return xml;
}
