import { z } from 'zod';
import { endpoint, media, redirect } from '../endpoint';
import { api } from '../paths';
import {
  authStatusResponse,
  csrfResponse,
  currentUser,
  extendSessionResponse,
  logoutResponse,
} from '../session';
import { inputText } from '../text';

/** A SAML response is a few kilobytes; anything far larger is refused before parsing. */
export const SAML_ACS_BODY_LIMIT = 256 * 1024;

/** The IdP's form post to the assertion consumer service. */
export const samlAcsBody = z.object({
  SAMLResponse: z.string().min(1).max(SAML_ACS_BODY_LIMIT),
  RelayState: inputText().max(2000).optional(),
});

export const getCsrfToken = endpoint({
  method: 'GET',
  path: api.csrf,
  operationId: 'getCsrfToken',
  summary: 'The session’s CSRF token (opens an anonymous session when there is none)',
  tag: 'session',
  callers: 'anyone',
  response: { 200: csrfResponse },
});

export const getAuthStatus = endpoint({
  method: 'GET',
  path: api.isAuthenticated,
  operationId: 'getAuthStatus',
  summary: 'Whether the caller is signed in, and until when',
  tag: 'session',
  callers: 'anyone',
  response: { 200: authStatusResponse },
});

export const startSignIn = endpoint({
  method: 'GET',
  path: api.login,
  operationId: 'startSignIn',
  summary: 'Starts a SAML sign-in at the identity provider, returning to `next` afterwards',
  tag: 'session',
  callers: 'anyone',
  query: z.object({ next: inputText().max(2000).optional() }),
  response: { 302: redirect('To the identity provider') },
});

export const completeSignIn = endpoint({
  method: 'POST',
  path: api.samlAcs,
  operationId: 'completeSignIn',
  summary: 'The identity provider’s SAML response (a browser form post)',
  tag: 'session',
  callers: 'anyone',
  csrf: false,
  body: samlAcsBody,
  bodyType: 'application/x-www-form-urlencoded',
  response: { 303: redirect('To the page the sign-in started from, or the failure page') },
});

export const getSamlMetadata = endpoint({
  method: 'GET',
  path: api.samlMetadata,
  operationId: 'getSamlMetadata',
  summary: 'The service provider’s SAML metadata',
  tag: 'session',
  callers: 'anyone',
  response: { 200: media('application/samlmetadata+xml', 'SAML metadata') },
});

/** A SAML message in the HTTP-Redirect binding: deflated, base64, signed in the query string. */
const redirectBindingMessage = z.string().min(1).max(SAML_ACS_BODY_LIMIT);

export const singleLogout = endpoint({
  method: 'GET',
  path: api.samlSingleLogout,
  operationId: 'singleLogout',
  summary:
    'Single logout from the identity provider (HTTP-Redirect binding): its signed LogoutRequest ends the session and is answered with a signed LogoutResponse; its LogoutResponse to ours ends at the home page',
  tag: 'session',
  callers: 'anyone',
  query: z.object({
    SAMLRequest: redirectBindingMessage.optional(),
    SAMLResponse: redirectBindingMessage.optional(),
    RelayState: inputText().max(2000).optional(),
    SigAlg: z.string().max(200).optional(),
    Signature: z.string().max(4096).optional(),
  }),
  response: { 302: redirect('To the identity provider with the LogoutResponse, or to the home page') },
});

export const signOut = endpoint({
  method: 'GET',
  path: api.logout,
  operationId: 'signOut',
  summary: 'Ends the session; answers where the browser goes next',
  tag: 'session',
  callers: 'anyone',
  headers: z.object({ 'x-pra-api-call': z.literal('true') }),
  response: { 200: logoutResponse },
});

export const getCurrentUser = endpoint({
  method: 'GET',
  path: api.user,
  operationId: 'getCurrentUser',
  summary: 'The signed-in person',
  tag: 'session',
  callers: 'signedIn',
  response: { 200: currentUser },
});

export const extendSession = endpoint({
  method: 'POST',
  path: api.extendSession,
  operationId: 'extendSession',
  summary: 'Extends the signed-in session',
  tag: 'session',
  callers: 'signedIn',
  response: { 200: extendSessionResponse },
});
