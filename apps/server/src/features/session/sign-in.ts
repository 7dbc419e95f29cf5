import { emailAddress, personName, routes } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { newSession, setSessionValue, type Session } from '../../http/session';
import { keyPolicy } from '../../identity/mfa/key-policy';
import { auditRow, recordAudit, type AuditEvent } from '../../identity/audit';
import { announceAudit } from '../../identity/audit-log';
import { consumeRequestAndRecordAssertion } from '../../store/saml';
import { createServiceProvider, spEndpoints } from '../../identity/saml-sp';
import { safeNextPath } from './next-path';
import * as sessions from '../../store/sessions';
import { checkAddressedToUs, hasForbiddenMarkup } from './saml-checks';
import type { Account } from '../../platform/db-schema';

export class SignInRefused extends Error {
  constructor(
    message: string,
    /** True when the refusal was already written to the audit log, with its target. */
    readonly audited = false,
    /** The failure page the browser is sent to (the plain one unless the person can act on it). */
    readonly page: string = routes.authFailure,
  ) {
    super(message);
  }
}

/** The failure page saying the IdP did not authenticate as strongly as the portal requires. */
export const AUTHN_CONTEXT_FAILURE_PAGE = `${routes.authFailure}?reason=authn-context`;

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

/** The assertion was weaker than the account needs: the browser goes to the IdP once more. */
export interface StepUp {
  stepUp: string;
}

/** The session key marking the account a step-up was asked for (one round per sign-in). */
const STEP_UP_KEY = 'samlStepUp';

function attribute(profile: Record<string, unknown>, name: string): string {
  const value = profile[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : '';
}

interface ProfileUpdate {
  fields: sessions.ProfileFields;
  /** The names of the fields whose value differs from the account's. */
  changed: string[];
  /** What changed, for the audit (the old and new email, the names changed). */
  details: Record<string, string>;
}

/**
 * What the hospital's IdP says of the person (IDP_ATTR_GIVEN_NAME, _FAMILY_NAME, _EMAIL), as the
 * account's new values. The directory behind the IdP is the authority on them: a value that passes
 * the portal's own field rules replaces the stored one (mail then goes to the directory's address);
 * one that fails them (too long, line breaks, bidi or zero-width characters, not an address) or is
 * missing is not taken, and never cut: the stored one stays.
 */
function idpProfile(ctx: AppContext, attrs: Record<string, unknown>, account: Account): ProfileUpdate {
  const given = personName.safeParse(attribute(attrs, ctx.config.IDP_ATTR_GIVEN_NAME));
  const family = personName.safeParse(attribute(attrs, ctx.config.IDP_ATTR_FAMILY_NAME));
  const email = emailAddress.safeParse(attribute(attrs, ctx.config.IDP_ATTR_EMAIL));
  const fields: sessions.ProfileFields = {};
  const details: Record<string, string> = {};
  const changed: string[] = [];
  if (given.success && given.data && given.data !== account.given_name) {
    fields.given_name = given.data;
    changed.push('givenName');
  }
  if (family.success && family.data && family.data !== account.family_name) {
    fields.family_name = family.data;
    changed.push('familyName');
  }
  if (email.success && email.data.toLowerCase() !== account.email.toLowerCase()) {
    fields.email = email.data;
    changed.push('email');
    details.previousEmail = account.email;
    details.email = email.data;
  }
  if (changed.length) details.changed = changed.join(' ');
  return { fields, changed, details };
}

/**
 * Finishes a SAML sign-in: validates the response (node-saml plus our own checks), uses up its
 * request and finds the active account it names (one round trip), and replaces the caller's
 * session with a new signed-in one (one more).
 */
export async function completeSignIn(ctx: AppContext, input: SignInInput): Promise<SignInResult | StepUp> {
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

  // The hospital's required context (e.g. MFA): an assertion that says it is anything else, or
  // says nothing, is refused although the IdP signed it.
  const required = ctx.config.requiredAuthnContext;
  if (required.length > 0 && !facts.authnContextClassRefs.some((ref) => required.includes(ref))) {
    const received = facts.authnContextClassRefs.join(' ').slice(0, 500) || '(none)';
    await recordAudit(ctx.db, {
      action: 'signin',
      outcome: 'failure',
      target: { id: account?.id ?? null, username: username.slice(0, 64) },
      clientAddress: input.clientAddress,
      details: { reason: 'authentication context not accepted', authnContext: received },
    });
    throw new SignInRefused(
      `authentication context not accepted: ${received}`,
      true,
      AUTHN_CONTEXT_FAILURE_PAGE,
    );
  }

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

  // An account whose organization requires phishing-resistant sign-in (it has a key, or its grace
  // is over) needs one of SAML_PHISHING_RESISTANT_CLASSES: one step-up, then /auth-failure.
  const strong = facts.authnContextClassRefs.some((ref) => ctx.config.phishingResistantClasses.includes(ref));
  if (!strong && (await keyPolicy(ctx, account)).kind === 'keysOnly') {
    const received = facts.authnContextClassRefs.join(' ').slice(0, 500) || '(none)';
    const who = { id: account.id, username: account.username };
    const previous = input.previousSession;
    if (previous && previous.data[STEP_UP_KEY] !== account.id) {
      await setSessionValue(ctx.db, previous, STEP_UP_KEY, account.id);
      await recordAudit(ctx.db, {
        action: 'signin.step-up',
        outcome: 'success',
        actor: who,
        target: who,
        clientAddress: input.clientAddress,
        details: { authnContext: received },
      });
      const sp = createServiceProvider(ctx.config, ctx.db, ctx.keys.sp, ctx.idp, {
        browserHash: input.browserHash,
        stepUp: true,
      });
      return { stepUp: await sp.getAuthorizeUrlAsync(safeNextPath(input.relayState), undefined, {}) };
    }
    if (previous) await setSessionValue(ctx.db, previous, STEP_UP_KEY, undefined);
    await recordAudit(ctx.db, {
      action: 'signin.mfa-strength-refused',
      outcome: 'failure',
      actor: who,
      target: who,
      clientAddress: input.clientAddress,
      details: { reason: 'mfaStrength', authnContext: received },
    });
    throw new SignInRefused(`authentication context too weak: ${received}`, true, AUTHN_CONTEXT_FAILURE_PAGE);
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
  const profileUpdate = ctx.config.idp === 'external' ? idpProfile(ctx, attrs, account) : null;
  const who = { id: account.id, username: account.username };
  const audits: AuditEvent[] = [
    { action: 'signin', outcome: 'success', actor: who, target: who, clientAddress: input.clientAddress },
  ];
  if (profileUpdate?.changed.length) {
    audits.push({
      action: 'account.update-from-idp',
      outcome: 'success',
      actor: who,
      target: who,
      clientAddress: input.clientAddress,
      details: profileUpdate.details,
    });
  }
  await sessions.startSignedIn(ctx.db, {
    session: created.row,
    previousIdHash: input.previousSession?.idHash ?? null,
    accountId: account.id,
    profile: profileUpdate?.changed.length ? profileUpdate.fields : null,
    signedInAt: ctx.clock.now(),
    audits: audits.map(auditRow),
  });
  for (const audit of audits) announceAudit(audit);
  return {
    rawSessionId: created.rawId,
    expiresAt: created.session.expiresAt,
    // GOVERNANCE.md §8.2: a vendor whose Acceptable Use Policy acceptance is overdue lands on it.
    next:
      account.type === 'vendor' && account.aup_overdue_since !== null
        ? routes.attest
        : safeNextPath(input.relayState),
  };
}
