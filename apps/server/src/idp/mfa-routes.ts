import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inputText } from '@pra/contracts';
import { z } from 'zod';
import type { AppContext } from '../platform/app-context';
import { abortOnClose } from '../http/abort-on-close';
import { sendPage } from '../http/server-page';
import type { Session } from '../http/session';
import type { Account } from '../platform/db-schema';
import { readLoginState, writeLoginState, type LoginState } from './login-state';
import { confirmEnrolment, findActiveAccountAndDevice, verifyPasscode, verifyPush } from './mfa-step';
import { mfaProvider, type MfaDevice } from '../identity/mfa/provider';
import { completeAttempt, type AttemptClaim } from '../identity/lockout';
import { pairingLink, pairPhone as pairPhoneWith } from '../identity/mfa/push';
import { checkCsrf, parseForm, sendExpired } from './page-replies';
import { enrolPage, passcodePage, postResponsePage } from './pages';
import { samlUrls } from './saml-entities';
import { createSignedNoAuthnContext, createSignedResponse, type SignInMethod } from './saml-response';
import { allowedMethods, methodMeets } from './authn-context';
import { newTotpSecret, secretGroups, totpQrDataUrl } from '../identity/mfa/totp';
import { countCredentials } from '../store/webauthn';
import {
  graceDate,
  keptKeyPolicy,
  keyPolicy,
  keyPolicyAndKeys,
  readKeyStanding,
  settleKeyPolicy,
  storeKeyPolicy,
  type KeyPolicy,
  type KeyStanding,
} from '../identity/mfa/key-policy';
import { recordAudit } from '../identity/audit';
import {
  defaultKeyNickname,
  graceInterstitialPage,
  keyEnrolSection,
  keySignInSection,
} from './webauthn-pages';
import { registerWebauthnRoutes } from './webauthn-routes';

const mfaForm = z.strictObject({
  csrfToken: z.string(),
  passcode: inputText().max(20),
  nickname: inputText().max(255).optional(),
  pairPhone: z.literal('on').optional(),
});
const pushForm = z.strictObject({ csrfToken: z.string() });

/** The account the password step let through, still active, and its confirmed authenticator. */
async function stateAccount(ctx: AppContext, state: LoginState | null) {
  if (!state || state.stage !== 'mfa' || !state.accountId) return null;
  return findActiveAccountAndDevice(ctx, state.accountId);
}

/** GET and POST /idp/mfa: enrol an authenticator on first sign-in, otherwise check a passcode. */
export function registerMfaRoutes(app: FastifyInstance, ctx: AppContext, bodyLimit: number): void {
  const hospitalName = ctx.config.HOSPITAL_NAME;

  /** The enrolment page; the pending seed is made once and kept encrypted in the session. */
  async function showEnrol(
    reply: FastifyReply,
    session: Session,
    state: LoginState,
    account: Account,
    status = 200,
    error?: string,
    nickname?: string,
  ) {
    let encrypted = state.pendingSecretEncrypted;
    if (!encrypted) {
      encrypted = ctx.encryptor.encrypt(newTotpSecret());
      await writeLoginState(ctx.db, session, { ...state, pendingSecretEncrypted: encrypted });
    }
    const secret = ctx.encryptor.decrypt(encrypted);
    const qrDataUrl = await totpQrDataUrl({
      issuer: `PRA Portal (${hospitalName})`,
      username: account.username,
      secret,
    });
    const page = enrolPage({
      hospitalName,
      csrfToken: session.csrfToken,
      qrDataUrl,
      secretGroups: secretGroups(secret),
      error,
      nickname,
      keySection: keyEnrolSection(session.csrfToken, defaultKeyNickname(ctx)),
    });
    return sendPage(reply, status, page);
  }

  /**
   * Both factors passed: answer the SP and forget the sign-in in progress, completing the passing
   * attempt (`claim`, when the step left it) in the same wait.
   */
  async function finish(
    reply: FastifyReply,
    session: Session,
    state: LoginState,
    account: Account,
    claim: AttemptClaim | undefined,
    pairPhone = false,
    clientAddress = '',
    method: SignInMethod = 'totp',
  ) {
    if (!methodMeets(state.requestedAuthnContext, method))
      return answerNoAuthnContext(reply, session, state, account, clientAddress, method, claim);
    const writes = Promise.all([
      claim ? completeAttempt(ctx.db, claim) : undefined,
      writeLoginState(ctx.db, session, null),
    ]);
    const samlResponse = createSignedResponse(ctx, state, {
      username: account.username,
      givenName: account.given_name,
      familyName: account.family_name,
      email: account.email,
      method,
    });
    await writes;
    // The sign-in that just enrolled the account's first factor is the owner's confirmation.
    const pairing = pairPhone
      ? await pairingLink(
          ctx,
          await ctx.db.transaction().execute((tx) =>
            pairPhoneWith(tx, ctx, {
              account,
              nickname: 'Phone paired at enrolment',
              clientAddress,
              details: { at: 'enrolment' },
            }),
          ),
        )
      : undefined;
    const page = postResponsePage({
      hospitalName,
      acsUrl: samlUrls(ctx).acsUrl,
      samlResponse,
      relayState: state.relayState,
      pairing,
    });
    return sendPage(reply, 200, page);
  }

  /**
   * The SP's RequestedAuthnContext cannot be met by this account (or by the method it used): the
   * SP gets a signed Response with status Responder/NoAuthnContext and no assertion (SAML core
   * 3.3.2.2.1), audited as a refused sign-in strength.
   */
  async function answerNoAuthnContext(
    reply: FastifyReply,
    session: Session,
    state: LoginState,
    account: Account,
    clientAddress: string,
    method: SignInMethod | null,
    claim?: AttemptClaim,
  ) {
    const who = { id: account.id, username: account.username };
    await Promise.all([
      claim ? completeAttempt(ctx.db, claim) : undefined,
      writeLoginState(ctx.db, session, null),
      recordAudit(ctx.db, {
        action: 'signin.mfa-strength-refused',
        outcome: 'failure',
        actor: who,
        target: who,
        clientAddress,
        details: {
          reason: 'requestedAuthnContext',
          method,
          requested: state.requestedAuthnContext?.classRefs.join(' ').slice(0, 500) ?? '',
        },
      }),
    ]);
    const page = postResponsePage({
      hospitalName,
      acsUrl: samlUrls(ctx).acsUrl,
      samlResponse: createSignedNoAuthnContext(ctx, state),
      relayState: state.relayState,
    });
    return sendPage(reply, 200, page);
  }

  /** The passcode page, with Send Push when the account has a paired authenticator. */
  async function showPasscode(
    reply: FastifyReply,
    session: Session,
    account: Account,
    status = 200,
    error?: string,
    providerDevice?: MfaDevice | null,
    hasPasscodeDevice?: boolean,
    standing?: KeyStanding,
  ) {
    const [device, { keys, policy }, passcodeDevice] = await Promise.all([
      providerDevice === undefined ? mfaProvider(ctx).device(account.id) : providerDevice,
      standing ? settleKeyPolicy(ctx, account, standing) : keyPolicyAndKeys(ctx, account),
      hasPasscodeDevice ??
        findActiveAccountAndDevice(ctx, account.id).then((found) => Boolean(found?.device)),
    ]);
    await keepKeyPolicy(session, account, policy);
    // An account that must sign in phishing-resistantly (it has a key or its grace is over) sees
    // the key alone; without a key, only the sponsor's reset lets it in again.
    const keyOnly = policy.kind === 'keysOnly';
    if (keyOnly && keys === 0) error = noKeyMessage;
    // The SP may ask for a class only some methods give (its step-up asks for a key's).
    const state = readLoginState(ctx, session);
    const allowed = allowedMethods(state?.requestedAuthnContext);
    const passcode = passcodeDevice && !keyOnly && allowed.passcode;
    const pushTo = device?.canPush && !keyOnly && allowed.push ? 'your paired phone' : null;
    const key = keys > 0 && allowed.key;
    if (state?.requestedAuthnContext && !passcode && !pushTo && !key)
      return answerNoAuthnContext(reply, session, state, account, '', null);
    return sendPage(
      reply,
      status,
      passcodePage({
        hospitalName,
        csrfToken: session.csrfToken,
        error,
        pushTo,
        passcode,
        keySection: key ? keySignInSection(session.csrfToken, passcode || Boolean(pushTo)) : undefined,
      }),
    );
  }

  /**
   * Keeps the policy the passcode page showed in the sign-in's state for the passcode or push
   * that follows (written only when it changed).
   */
  async function keepKeyPolicy(session: Session, account: Pick<Account, 'id'>, policy: KeyPolicy) {
    const state = readLoginState(ctx, session);
    if (!state || state.stage !== 'mfa' || state.accountId !== account.id) return;
    const stored = storeKeyPolicy(policy);
    if (JSON.stringify(state.keyPolicy) === JSON.stringify(stored)) return;
    await writeLoginState(ctx.db, session, { ...state, keyPolicy: stored });
  }

  /** The policy the passcode page kept in the sign-in's state, or (without one) read now. */
  async function policyOfSignIn(state: LoginState, account: Account): Promise<KeyPolicy> {
    return state.keyPolicy ? keptKeyPolicy(state.keyPolicy, ctx.clock.now()) : keyPolicy(ctx, account);
  }

  app.get('/idp/mfa', async (request, reply) => {
    const session = request.session;
    const state = readLoginState(ctx, session);
    // The provider's view of the device (for Send Push) and what decides the key policy (with
    // the number of keys) are read in the same wait; the policy is settled only for the passcode
    // page, as before.
    const [found, providerDevice, standing] = await Promise.all([
      stateAccount(ctx, state),
      state?.accountId ? mfaProvider(ctx).device(state.accountId) : null,
      state?.accountId ? readKeyStanding(ctx, state.accountId) : null,
    ]);
    if (!session || !state || !found) return sendExpired(ctx, reply);
    if (found.device || (standing?.keys ?? 0) > 0)
      return showPasscode(
        reply,
        session,
        found.account,
        200,
        undefined,
        providerDevice,
        Boolean(found.device),
        standing ?? undefined,
      );
    return showEnrol(reply, session, state, found.account);
  });

  app.post('/idp/mfa', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(ctx, session);
    const found = await stateAccount(ctx, state);
    if (!state || !found) return sendExpired(ctx, reply);
    const { account, device } = found;
    const form = parseForm(mfaForm, request.body);
    const passcode = form?.passcode.trim() ?? '';
    const formatError = /^\d{6}$/.test(passcode) ? null : 'The passcode must be exactly 6 digits.';

    const policy = device ? await policyOfSignIn(state, account) : null;
    if (device && (policy?.kind === 'keysOnly' || !methodMeets(state.requestedAuthnContext, 'totp'))) {
      await refuseWeakMethod(ctx, account, request.ip, 'totp');
      return showPasscode(reply, session, account, 403, keyRequiredMessage);
    }
    if (device) {
      const outcome = formatError
        ? { ok: false as const, message: formatError }
        : await verifyPasscode(ctx, { account, device, code: passcode, clientAddress: request.ip });
      if (outcome.ok && policy?.kind === 'grace')
        return holdForKey(reply, session, state, policy, outcome.claim, 'totp');
      if (outcome.ok) return finish(reply, session, state, account, outcome.claim);
      return showPasscode(reply, session, account, formatError ? 400 : 401, outcome.message);
    }
    // An account with a security key but no authenticator app enrols no app here.
    if ((await countCredentials(ctx.db, account.id)) > 0)
      return showPasscode(reply, session, account, 400, 'Use your security key or passkey.');

    const nickname = form?.nickname?.trim() ?? '';
    const inputError =
      formatError ??
      (nickname.length < 1 || nickname.length > 64
        ? 'Enter a device nickname of up to 64 characters.'
        : null);
    if (inputError || !state.pendingSecretEncrypted)
      return showEnrol(reply, session, state, account, 400, inputError ?? undefined, nickname);
    const outcome = await confirmEnrolment(ctx, {
      account,
      secretEncrypted: state.pendingSecretEncrypted,
      code: passcode,
      nickname,
      clientAddress: request.ip,
    });
    if (outcome.ok)
      return finish(reply, session, state, account, undefined, form?.pairPhone === 'on', request.ip);
    return showEnrol(reply, session, state, account, 401, outcome.message, nickname);
  });

  /** Push at sign-in: waits for the paired phone's answer, then finishes like a passcode. */
  app.post('/idp/mfa/push', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(ctx, session);
    const found = await stateAccount(ctx, state);
    if (!state || !found?.device || !parseForm(pushForm, request.body)) return sendExpired(ctx, reply);
    const { account } = found;
    const policy = await policyOfSignIn(state, account);
    if (policy.kind === 'keysOnly' || !methodMeets(state.requestedAuthnContext, 'push')) {
      await refuseWeakMethod(ctx, account, request.ip, 'push');
      return showPasscode(reply, session, account, 403, keyRequiredMessage);
    }
    const outcome = await verifyPush(ctx, {
      account,
      clientAddress: request.ip,
      signal: abortOnClose(reply),
    });
    if (outcome.ok && policy.kind === 'grace')
      return holdForKey(reply, session, state, policy, outcome.claim, 'push');
    if (outcome.ok) return finish(reply, session, state, account, outcome.claim, false, request.ip, 'push');
    return showPasscode(reply, session, account, 401, outcome.message);
  });

  /**
   * A passcode or push passed during the grace: the attempt completes, the sign-in waits on the
   * "Add One Now" interstitial (Later answers the SP as the passcode or push would have).
   */
  async function holdForKey(
    reply: FastifyReply,
    session: Session,
    state: LoginState,
    policy: Extract<KeyPolicy, { kind: 'grace' }>,
    claim: AttemptClaim | undefined,
    passedWith: 'totp' | 'push',
  ) {
    await Promise.all([
      claim ? completeAttempt(ctx.db, claim) : undefined,
      writeLoginState(ctx.db, session, { ...state, passedWith }),
    ]);
    return showGrace(reply, session, policy, false);
  }

  function showGrace(
    reply: FastifyReply,
    session: Session,
    policy: Extract<KeyPolicy, { kind: 'grace' }>,
    adding: boolean,
    status = 200,
    error?: string,
  ) {
    return sendPage(
      reply,
      status,
      graceInterstitialPage({
        hospitalName,
        csrfToken: session.csrfToken,
        organizationName: policy.organizationName,
        date: graceDate(policy.until),
        defaultNickname: defaultKeyNickname(ctx),
        adding,
        error,
      }),
    );
  }

  /** The interstitial's two answers, only after a passcode or push passed in this sign-in. */
  async function graceStep(request: FastifyRequest, reply: FastifyReply) {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return null;
    const state = readLoginState(ctx, session);
    const found = await stateAccount(ctx, state);
    if (!session || !state?.passedWith || !found || !parseForm(pushForm, request.body)) {
      sendExpired(ctx, reply);
      return null;
    }
    return { session, state, account: found.account, passedWith: state.passedWith };
  }

  app.post('/idp/mfa/grace/add', { bodyLimit }, async (request, reply) => {
    const step = await graceStep(request, reply);
    if (!step) return reply;
    const policy = await keyPolicy(ctx, step.account);
    // The grace ended (or the requirement dropped) since the passcode: answer as Later would.
    if (policy.kind !== 'grace')
      return finish(
        reply,
        step.session,
        step.state,
        step.account,
        undefined,
        false,
        request.ip,
        step.passedWith,
      );
    return showGrace(reply, step.session, policy, true);
  });

  app.post('/idp/mfa/grace/later', { bodyLimit }, async (request, reply) => {
    const step = await graceStep(request, reply);
    if (!step) return reply;
    return finish(
      reply,
      step.session,
      step.state,
      step.account,
      undefined,
      false,
      request.ip,
      step.passedWith,
    );
  });

  /** The interstitial again (after a failed key ceremony), or the passcode page when it no longer applies. */
  async function showGraceAgain(
    reply: FastifyReply,
    session: Session,
    account: Account,
    status: number,
    error: string,
  ) {
    const policy = await keyPolicy(ctx, account);
    if (policy.kind === 'grace') return showGrace(reply, session, policy, true, status, error);
    return showPasscode(reply, session, account, status, error);
  }

  registerWebauthnRoutes(app, ctx, bodyLimit, {
    stateAccount,
    finish,
    showPasscode,
    showEnrol,
    showGraceAgain,
  });
}

export const keyRequiredMessage = 'Your organization requires a security key or passkey to sign in.';
/** After the grace, to an account without a key (GOVERNANCE.md §7.8's words for the reset). */
export const noKeyMessage = `${keyRequiredMessage} Contact your sponsor to reset your sign-in methods.`;

async function refuseWeakMethod(
  ctx: AppContext,
  account: Pick<Account, 'id' | 'username'>,
  clientAddress: string,
  method: 'totp' | 'push',
) {
  const who = { id: account.id, username: account.username };
  await recordAudit(ctx.db, {
    action: 'signin.mfa-strength-refused',
    outcome: 'failure',
    actor: who,
    target: who,
    clientAddress,
    details: { method, reason: 'phishingResistantRequired' },
  });
}
