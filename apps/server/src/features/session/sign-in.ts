import { personName } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { newSession, type Session } from '../../http/session';
import { auditRow, recordAudit, type AuditEvent } from '../../identity/audit';
import { announceAudit } from '../../identity/audit-log';
import { consumeRequestAndRecordAssertion } from '../../store/saml';
import { createServiceProvider, spEndpoints } from '../../identity/saml-sp';
import { safeNextPath } from './next-path';
import * as sessions from '../../store/sessions';
import { checkAddressedToUs, hasForbiddenMarkup } from './saml-checks';

export class SignInRefused extends Error {
  constructor(
    message: string,
    /** True when the refusal was already written to the audit log, with its target. */
    readonly audited = false,
  ) {
    super(message);
  }
}

export interface SignInInput {
  samlResponse: string;
  relayState: string | undefined;
  previousSession: Session | null;
  /** Hash of the posting browser's sign-in nonce (see browser-binding.ts). */
  browserHash: string;
  clientAddress: string;
  userAgent: string;
}

export interface SignInResult {
  rawSessionId: string;
  expiresAt: Date;
  next: string;
}

function attribute(profile: Record<string, unknown>, name: string): string {
  const value = profile[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : '';
}

/**
 * Finishes a SAML sign-in: validates the response (node-saml plus our own checks), uses up its
 * request and finds the active account it names (one round trip), and replaces the caller's
 * session with a new signed-in one (one more).
 */
export async function completeSignIn(ctx: AppContext, input: SignInInput): Promise<SignInResult> {
  const sp = createServiceProvider(ctx.config, ctx.db, ctx.keys.sp, ctx.idp, { consumedLater: true });
  if (hasForbiddenMarkup(input.samlResponse)) throw new SignInRefused('DOCTYPE or ENTITY in SAML response');
  let profile;
  try {
    ({ profile } = await sp.validatePostResponseAsync({ SAMLResponse: input.samlResponse }));
  } catch (error) {
    throw new SignInRefused(error instanceof Error ? error.message : 'invalid SAML response');
  }
  if (!profile) throw new SignInRefused('SAML response without a profile');
  const { acsUrl } = spEndpoints(ctx.config.publicUrl);
  const responseXml = profile.getSamlResponseXml?.();
  const assertionXml = profile.getAssertionXml?.();
  if (!responseXml || !assertionXml) throw new SignInRefused('SAML response without documents');
  let facts;
  try {
    facts = checkAddressedToUs(responseXml, assertionXml, { acsUrl, idpEntityId: ctx.idp.entityId });
  } catch (error) {
    throw new SignInRefused(error instanceof Error ? error.message : 'response not addressed to us');
  }
  const attrs = profile as unknown as Record<string, unknown>;
  const username =
    ctx.config.IDP_ATTR_USERNAME === 'nameID'
      ? (profile.nameID ?? '')
      : attribute(attrs, ctx.config.IDP_ATTR_USERNAME);
  const { outcome, account } = await consumeRequestAndRecordAssertion(ctx.db, {
    requestId: facts.inResponseTo,
    browserHash: input.browserHash,
    assertionId: facts.assertionId,
    assertionExpiresAt: facts.expiresAt,
    username,
  });
  if (outcome === 'requestNotOurs')
    throw new SignInRefused('InResponseTo already used, or the sign-in was started in another browser');
  if (outcome === 'assertionReplayed') throw new SignInRefused('assertion replayed');

  if (!account || account.status !== 'active') {
    await recordAudit(ctx.db, {
      action: 'signin',
      outcome: 'failure',
      target: { id: account?.id ?? null, username: username.slice(0, 64) },
      clientAddress: input.clientAddress,
      details: { reason: account ? `account ${account.status}` : 'unknown account' },
    });
    throw new SignInRefused(account ? `account is ${account.status}` : 'unknown account', true);
  }

  const created = newSession(ctx.session.secret, {
    accountId: account.id,
    lifetimeMs: ctx.config.SESSION_LIFETIME_MINUTES * 60_000,
    clientAddress: input.clientAddress,
    userAgent: input.userAgent,
    data: {
      saml: {
        nameID: profile.nameID,
        nameIDFormat: profile.nameIDFormat,
        sessionIndex: profile.sessionIndex ?? null,
      },
    },
  });
  // External IdPs may carry fresher names and email; the portal's own flags stay as they are.
  // Names that fail the portal's own field rules (too long, line breaks, bidi or zero-width
  // characters) are not taken, and never cut: the stored ones stay.
  const given = personName.safeParse(attribute(attrs, ctx.config.IDP_ATTR_GIVEN_NAME));
  const family = personName.safeParse(attribute(attrs, ctx.config.IDP_ATTR_FAMILY_NAME));
  const names =
    ctx.config.idp === 'external' && given.success && family.success
      ? { given_name: given.data, family_name: family.data }
      : null;
  const audit: AuditEvent = {
    action: 'signin',
    outcome: 'success',
    actor: { id: account.id, username: account.username },
    target: { id: account.id, username: account.username },
    clientAddress: input.clientAddress,
  };
  await sessions.startSignedIn(ctx.db, {
    session: created.row,
    previousIdHash: input.previousSession?.idHash ?? null,
    accountId: account.id,
    names,
    signedInAt: ctx.clock.now(),
    audit: auditRow(audit),
  });
  announceAudit(audit);
  return {
    rawSessionId: created.rawId,
    expiresAt: created.session.expiresAt,
    next: safeNextPath(input.relayState),
  };
}
