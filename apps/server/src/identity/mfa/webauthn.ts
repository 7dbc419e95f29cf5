import { createHash, randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { AppContext } from '../../platform/app-context';
import type { Account } from '../../platform/db-schema';
import * as sessions from '../../store/sessions';
import * as store from '../../store/webauthn';
import { recordAudit } from '../audit';
import { compose, linkPara, mailSite, para, type MailContent, type MailSite } from '../mail-templates';
import { enqueueMail } from '../outbox';
import { infosecEmails } from '../approval-routing';
import { loginUrl, routes, securityKeyMessages } from '@pra/contracts';

/** Security keys and passkeys per account (GOVERNANCE.md §7.5). */
export const MAX_CREDENTIALS = 10;
/** How long a challenge may be answered. */
export const CHALLENGE_MS = 5 * 60_000;

export const webauthnMessages = {
  notRegistered: 'That security key is not registered for this account',
  noUserVerification: 'The security key did not confirm it is you (PIN or fingerprint required)',
  /** The same words as the browser's refusals on the profile (contracts' securityKeyMessages). */
  cancelled: securityKeyMessages.cancelled,
  alreadyRegistered: securityKeyMessages.alreadyRegistered,
  tooMany: `You can register at most ${MAX_CREDENTIALS} security keys or passkeys`,
  lastRequired: 'You need at least one security key or passkey',
  nickname: 'Enter a nickname of up to 64 characters.',
  notFound: 'That security key or passkey was not found',
  counter: 'That security key could not be used. Contact the PRA support team.',
} as const;

export type Purpose = 'register' | 'signin' | 'reset' | 'stepup';

/** The challenge waiting for an answer, kept in the session (never sent except in the options). */
const pendingSchema = z.object({
  purpose: z.enum(['register', 'signin', 'reset', 'stepup']),
  accountId: z.string(),
  challenge: z.string(),
  expiresAt: z.number(),
});
const SESSION_KEY = 'webauthn';

/** The session a ceremony's challenge is bound to. */
export type Session = Pick<sessions.StoredSession, 'idHash' | 'data'>;

/** Sets (or with undefined removes) the session's pending challenge, in the row and in `data`. */
async function setPending(ctx: AppContext, session: Session, value: unknown) {
  await sessions.setValue(ctx.db, session.idHash, SESSION_KEY, value);
  const data = { ...session.data };
  if (value === undefined) delete data[SESSION_KEY];
  else data[SESSION_KEY] = value;
  session.data = data;
}

/** The session key of a confirmation with an existing key: until when (ms) it stands. */
export const KEY_CONFIRMED = 'webauthnConfirmedUntil';

/** Whether the session holds a live confirmation with one of the account's keys. */
export function keyConfirmationGiven(
  ctx: Pick<AppContext, 'clock'>,
  session: Pick<Session, 'data'>,
): boolean {
  const until = session.data[KEY_CONFIRMED];
  return typeof until === 'number' && until > ctx.clock.now().getTime();
}

/** Relying party: the RP ID is PUBLIC_URL's host, the only accepted origin is PUBLIC_URL's. */
export function relyingParty(ctx: Pick<AppContext, 'config'>): { rpID: string; origin: string } {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** A short, non-reversible name of a credential id for the audit log. */
export function credentialIdHash(credentialId: string): string {
  return createHash('sha256').update(credentialId).digest('base64url').slice(0, 16);
}

async function remember(
  ctx: AppContext,
  session: Session,
  purpose: Purpose,
  accountId: string,
  challenge: string,
) {
  const expiresAt = ctx.clock.now().getTime() + CHALLENGE_MS;
  await setPending(ctx, session, { purpose, accountId, challenge, expiresAt });
}

/**
 * Takes the session's challenge for this purpose and account, once: it is removed whatever the
 * answer, so an assertion or attestation can never be checked twice against it. Null when there
 * is none, it is for something else, or it has expired.
 */
async function takeChallenge(ctx: AppContext, session: Session, purpose: Purpose, accountId: string) {
  const parsed = pendingSchema.safeParse(session.data[SESSION_KEY]);
  if (session.data[SESSION_KEY] !== undefined) await setPending(ctx, session, undefined);
  if (!parsed.success) return null;
  const pending = parsed.data;
  if (pending.purpose !== purpose || pending.accountId !== accountId) return null;
  if (ctx.clock.now().getTime() > pending.expiresAt) return null;
  return pending.challenge;
}

const transportsOf = (stored: string) =>
  stored ? (stored.split(',') as AuthenticatorTransport[]) : undefined;

/** Options for `navigator.credentials.create`; the challenge is remembered in the session. */
export async function registrationOptions(
  ctx: AppContext,
  session: Session,
  account: Pick<Account, 'id' | 'username' | 'given_name' | 'family_name'>,
): Promise<{ ok: true; options: PublicKeyCredentialCreationOptionsJSON } | { ok: false; message: string }> {
  const existing = await store.listCredentials(ctx.db, account.id);
  if (existing.length >= MAX_CREDENTIALS) return { ok: false, message: webauthnMessages.tooMany };
  const handle = await store.userHandle(ctx.db, account.id, randomBytes(32).toString('base64url'));
  const { rpID } = relyingParty(ctx);
  const options = await generateRegistrationOptions({
    rpName: 'PRA Portal',
    rpID,
    userName: account.username,
    userDisplayName: `${account.given_name} ${account.family_name}`.trim(),
    userID: new Uint8Array(Buffer.from(handle, 'base64url')),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({
      id: c.credential_id,
      transports: transportsOf(c.transports),
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    // ES256, Ed25519, RS256: what keys and passkeys use. Not the library's post-quantum default
    // (ML-DSA): Node's support is experimental and its keys would outgrow the IdP's form posts.
    supportedAlgorithmIDs: [-7, -8, -257],
    timeout: CHALLENGE_MS,
  });
  await remember(ctx, session, 'register', account.id, options.challenge);
  return { ok: true, options };
}

export type RegisterOutcome = { ok: true; id: string; nickname: string } | { ok: false; message: string };

/**
 * Checks an attestation against the session's challenge (single use), PUBLIC_URL's origin and RP
 * ID, with user verification required, and stores the credential with its audit event and the
 * owner's mail in one transaction.
 */
export async function verifyRegistration(
  ctx: AppContext,
  session: Session,
  input: {
    account: Pick<Account, 'id' | 'username' | 'given_name' | 'email'>;
    response: RegistrationResponseJSON;
    nickname: string;
    clientAddress: string;
  },
): Promise<RegisterOutcome> {
  const { account } = input;
  const nickname = input.nickname.trim();
  const challenge = await takeChallenge(ctx, session, 'register', account.id);
  if (!challenge) return refused(ctx, input, 'passkey.register', 'challenge', webauthnMessages.cancelled);
  if (nickname.length < 1 || nickname.length > 64) return { ok: false, message: webauthnMessages.nickname };
  const { rpID, origin } = relyingParty(ctx);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch (error) {
    const reason = failureReason(error);
    return refused(ctx, input, 'passkey.register', reason, messageFor(reason));
  }
  if (!verification.verified)
    return refused(ctx, input, 'passkey.register', 'signature', webauthnMessages.cancelled);
  const info = verification.registrationInfo;
  const at = ctx.clock.now();
  const outcome = await ctx.db.transaction().execute(async (tx): Promise<RegisterOutcome> => {
    if ((await store.countCredentials(tx, account.id)) >= MAX_CREDENTIALS)
      return { ok: false, message: webauthnMessages.tooMany };
    const id = await store.insertCredential(tx, {
      accountId: account.id,
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: (info.credential.transports ?? []).join(','),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      aaguid: info.aaguid,
      nickname,
      at,
    });
    if (!id) return { ok: false, message: webauthnMessages.alreadyRegistered };
    await recordAudit(tx, {
      action: 'passkey.register',
      outcome: 'success',
      actor: { id: account.id, username: account.username },
      target: { id: account.id, username: account.username },
      clientAddress: input.clientAddress,
      details: {
        credential: credentialIdHash(info.credential.id),
        aaguid: info.aaguid,
        backedUp: info.credentialBackedUp,
        deviceType: info.credentialDeviceType,
        nickname,
      },
    });
    await enqueueMail(tx, {
      to: account.email,
      ...securityKeyMail(mailSite(ctx), account, 'added', nickname),
    });
    return { ok: true, id, nickname };
  });
  if (!outcome.ok) return refused(ctx, input, 'passkey.register', 'duplicate', outcome.message);
  return outcome;
}

/** Options for `navigator.credentials.get` with the account's credentials; null when it has none. */
export async function authenticationOptions(
  ctx: AppContext,
  session: Session,
  accountId: string,
  purpose: Exclude<Purpose, 'register'>,
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const credentials = await store.listCredentials(ctx.db, accountId);
  if (credentials.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    allowCredentials: credentials.map((c) => ({
      id: c.credential_id,
      transports: transportsOf(c.transports),
    })),
    userVerification: 'required',
    timeout: CHALLENGE_MS,
  });
  await remember(ctx, session, purpose, accountId, options.challenge);
  return options;
}

export type AuthenticateOutcome =
  { ok: true; credential: { id: string; nickname: string } } | { ok: false; message: string; reason: string };

/**
 * Checks an assertion: the session's challenge for this purpose (single use), a credential of
 * this account, PUBLIC_URL's origin and RP ID, user verification, the signature; then the counter,
 * which must go up unless both it and the stored one are 0 (synced passkeys). A counter that
 * does not go up after a valid signature may be a cloned key: refused, audited, InfoSec mailed.
 */
export async function verifyAuthentication(
  ctx: AppContext,
  session: Session,
  input: {
    account: Pick<Account, 'id' | 'username'>;
    response: AuthenticationResponseJSON;
    purpose: Exclude<Purpose, 'register'>;
    clientAddress: string;
  },
): Promise<AuthenticateOutcome> {
  const { account } = input;
  const action = `passkey.${input.purpose}`;
  const challenge = await takeChallenge(ctx, session, input.purpose, account.id);
  if (!challenge) return refused(ctx, input, action, 'challenge', webauthnMessages.cancelled);
  const stored = await store.findByCredentialId(ctx.db, String(input.response.id));
  if (!stored || stored.account_id !== account.id)
    return refused(
      ctx,
      input,
      action,
      stored ? 'otherAccount' : 'unknownCredential',
      webauthnMessages.notRegistered,
    );
  const { rpID, origin } = relyingParty(ctx);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      // The counter is compared below, once the signature is known to be good.
      credential: {
        id: stored.credential_id,
        publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
        counter: 0,
        transports: transportsOf(stored.transports),
      },
      requireUserVerification: true,
    });
  } catch (error) {
    const reason = failureReason(error);
    return refused(ctx, input, action, reason, messageFor(reason));
  }
  if (!verification.verified) return refused(ctx, input, action, 'signature', webauthnMessages.cancelled);
  const info = verification.authenticationInfo;
  const at = ctx.clock.now();
  const used = await store.recordUse(ctx.db, stored.id, {
    counter: info.newCounter,
    backedUp: info.credentialBackedUp,
    at,
  });
  if (!used) {
    await counterRegression(ctx, input, stored, info.newCounter);
    return { ok: false, message: webauthnMessages.counter, reason: 'counter' };
  }
  return { ok: true, credential: { id: stored.id, nickname: stored.nickname } };
}

async function counterRegression(
  ctx: AppContext,
  input: { account: Pick<Account, 'id' | 'username'>; clientAddress: string },
  stored: store.StoredCredential,
  reported: number,
) {
  const { account } = input;
  const site = mailSite(ctx);
  await ctx.db.transaction().execute(async (tx) => {
    await recordAudit(tx, {
      action: 'passkey.counter-regression',
      outcome: 'failure',
      actor: { id: account.id, username: account.username },
      target: { id: account.id, username: account.username },
      clientAddress: input.clientAddress,
      details: {
        credential: credentialIdHash(stored.credential_id),
        storedCounter: stored.counter,
        reportedCounter: reported,
      },
    });
    for (const to of await infosecEmails(tx, ctx.config)) {
      await enqueueMail(tx, {
        to,
        ...compose(
          site,
          'passkey-counter-regression',
          `${site.hospitalName} PRA Portal: possible cloned security key`,
          [
            para(
              `A sign-in to ${account.username} with the security key "${stored.nickname}" was refused: ` +
                `its signature counter went back (stored ${stored.counter}, reported ${reported}). ` +
                'The key may have been cloned. Contact the account holder and consider resetting their sign-in methods.',
            ),
            para(`Client address: ${input.clientAddress}`),
          ],
        ),
      });
    }
  });
}

/** What went wrong in a ceremony the library refused, for the audit log (never the data). */
function failureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/user verification (was )?required/i.test(message)) return 'userVerification';
  if (/origin/i.test(message)) return 'origin';
  if (/rp ?id/i.test(message)) return 'rpId';
  if (/challenge/i.test(message)) return 'challenge';
  return 'invalid';
}

function messageFor(reason: string): string {
  return reason === 'userVerification' ? webauthnMessages.noUserVerification : webauthnMessages.cancelled;
}

async function refused<T extends { ok: false; message: string }>(
  ctx: AppContext,
  input: { account: Pick<Account, 'id' | 'username'>; clientAddress: string },
  action: string,
  reason: string,
  message: string,
): Promise<T & { reason: string }> {
  const who = { id: input.account.id, username: input.account.username };
  await recordAudit(ctx.db, {
    action,
    outcome: 'failure',
    actor: who,
    target: who,
    clientAddress: input.clientAddress,
    details: { reason },
  });
  return { ok: false, message, reason } as T & { reason: string };
}

/** Renames one of the owner's credentials (audited). */
export async function renameCredential(
  ctx: AppContext,
  input: { account: Pick<Account, 'id' | 'username'>; id: string; nickname: string; clientAddress: string },
): Promise<{ ok: true } | { ok: false; message: string }> {
  const nickname = input.nickname.trim();
  if (nickname.length < 1 || nickname.length > 64) return { ok: false, message: webauthnMessages.nickname };
  return ctx.db.transaction().execute(async (tx) => {
    if (!(await store.renameCredential(tx, input.account.id, input.id, nickname)))
      return { ok: false as const, message: webauthnMessages.notFound };
    const who = { id: input.account.id, username: input.account.username };
    await recordAudit(tx, {
      action: 'passkey.rename',
      outcome: 'success',
      actor: who,
      target: who,
      clientAddress: input.clientAddress,
      details: { nickname },
    });
    return { ok: true as const };
  });
}

/**
 * Removes one of the owner's credentials, with the audit event and the owner's mail; refused for
 * the last one when an organization of the account requires phishing-resistant sign-in.
 */
export async function removeCredential(
  ctx: AppContext,
  input: {
    account: Pick<Account, 'id' | 'username' | 'given_name' | 'email'>;
    id: string;
    clientAddress: string;
  },
): Promise<{ ok: true } | { ok: false; message: string; status: 'notFound' | 'conflict' }> {
  const { account } = input;
  const now = ctx.clock.now();
  return ctx.db
    .transaction()
    .execute(async (tx) => {
      const removed = await store.deleteCredential(tx, account.id, input.id);
      if (!removed)
        return { ok: false as const, message: webauthnMessages.notFound, status: 'notFound' as const };
      if (
        (await store.countCredentials(tx, account.id)) === 0 &&
        (await store.requiresPhishingResistant(tx, account.id, now))
      ) {
        // Nothing is removed: the transaction is rolled back by the refusal.
        throw new LastRequiredKey();
      }
      const who = { id: account.id, username: account.username };
      await recordAudit(tx, {
        action: 'passkey.remove',
        outcome: 'success',
        actor: who,
        target: who,
        clientAddress: input.clientAddress,
        details: { credential: credentialIdHash(removed.credential_id), nickname: removed.nickname },
      });
      await enqueueMail(tx, {
        to: account.email,
        ...securityKeyMail(mailSite(ctx), account, 'removed', removed.nickname),
      });
      return { ok: true as const };
    })
    .catch(async (error: unknown) => {
      if (!(error instanceof LastRequiredKey)) throw error;
      await recordAudit(ctx.db, {
        action: 'passkey.remove',
        outcome: 'failure',
        actor: { id: account.id, username: account.username },
        target: { id: account.id, username: account.username },
        clientAddress: input.clientAddress,
        details: { reason: 'lastRequired' },
      });
      return { ok: false as const, message: webauthnMessages.lastRequired, status: 'conflict' as const };
    });
}

class LastRequiredKey extends Error {}

/** W1/W2: to the owner, when a security key or passkey was added to or removed from the account. */
export function securityKeyMail(
  site: MailSite,
  account: Pick<Account, 'username' | 'given_name'>,
  change: 'added' | 'removed',
  nickname: string,
): MailContent {
  const added = change === 'added';
  return compose(
    site,
    added ? 'passkey-added' : 'passkey-removed',
    added
      ? 'A security key or passkey was added to your PRA account'
      : 'A security key or passkey was removed from your PRA account',
    [
      para(`Hello ${account.given_name},`),
      para(
        added
          ? `The security key or passkey "${nickname}" was added to your account ${account.username}: it can now sign you in.`
          : `The security key or passkey "${nickname}" was removed from your account ${account.username}: it can no longer sign you in.`,
      ),
      linkPara(
        `If this was not you, contact the PRA support team at once and change your password. Sign in:`,
        `${site.publicUrl}${loginUrl(routes.profile)}`,
      ),
    ],
  );
}
