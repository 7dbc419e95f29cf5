import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db } from './db';
import type { KeyPair } from './keys';
import type { IdpDescription } from './idp-metadata';

/** How long a sign-in may take between the AuthnRequest and the response. */
export const REQUEST_TTL_MS = 10 * 60_000;
/** Clock skew tolerated between the IdP and us. */
const CLOCK_SKEW_MS = 30_000;

export interface SpEndpoints {
  entityId: string;
  acsUrl: string;
}

export function spEndpoints(publicUrl: string): SpEndpoints {
  return { entityId: `${publicUrl}/api/saml/metadata`, acsUrl: `${publicUrl}/api/saml/acs` };
}

/**
 * AuthnRequest ids live in the database so that any instance can finish a sign-in another
 * started, each with the hash of the starting browser's nonce (empty where only validation
 * uses the cache). `removeAsync` does nothing: the ACS consumes the id itself, atomically.
 */
function databaseRequestCache(db: Db, browserHash = ''): CacheProvider {
  return {
    async saveAsync(key, value) {
      await db
        .insertInto('saml_requests')
        .values({ id: key, expires_at: new Date(Date.now() + REQUEST_TTL_MS), browser_hash: browserHash })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      const row = await db
        .selectFrom('saml_requests')
        .select('created_at')
        .where('id', '=', key)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row ? row.created_at.toISOString() : null;
    },
    async removeAsync() {
      return null;
    },
  };
}

/**
 * Uses up an AuthnRequest id started by this browser; false when it was already used, never
 * issued, or started by another browser.
 */
export async function consumeRequestId(db: Db, id: string, browserHash: string): Promise<boolean> {
  if (!browserHash) return false;
  const row = await db
    .deleteFrom('saml_requests')
    .where('id', '=', id)
    .where('browser_hash', '=', browserHash)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/** Records an assertion id; false when the same assertion was seen before (a replay). */
export async function recordAssertionId(db: Db, id: string, expiresAt: Date): Promise<boolean> {
  const row = await db
    .insertInto('saml_assertions')
    .values({ id, expires_at: expiresAt })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * The node-saml service provider, pinned to the IdP's certificates. A sign-in is started with an
 * instance made for the browser (`browserHash`), so its request id is recorded with it.
 */
export function createServiceProvider(
  config: Config,
  db: Db,
  spKeys: KeyPair,
  idp: IdpDescription,
  browserHash = '',
): SAML {
  const { entityId, acsUrl } = spEndpoints(config.publicUrl);
  return new SAML({
    callbackUrl: acsUrl,
    entryPoint: idp.ssoUrl,
    issuer: entityId,
    audience: entityId,
    idpIssuer: idp.entityId,
    idpCert: idp.signingCerts,
    privateKey: spKeys.privateKeyPem,
    publicCert: spKeys.certPem,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: REQUEST_TTL_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: databaseRequestCache(db, browserHash),
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    ...(idp.logoutUrl ? { logoutUrl: idp.logoutUrl, logoutCallbackUrl: `${config.publicUrl}/home` } : {}),
  });
}
