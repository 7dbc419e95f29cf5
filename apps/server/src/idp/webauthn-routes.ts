import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../platform/app-context';
import type { Account } from '../platform/db-schema';
import { sendPage } from '../http/server-page';
import type { Session } from '../http/session';
import { recordAudit } from '../identity/audit';
import {
  authenticationOptions,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
  webauthnMessages,
} from '../identity/mfa/webauthn';
import type { MfaDevice } from '../identity/mfa/provider';
import type { AttemptClaim } from '../identity/lockout';
import { countCredentials } from '../store/webauthn';
import type { ConfirmedDevice } from '../store/factors';
import { readLoginState, writeLoginState, type LoginState } from './login-state';
import { checkCsrf, parseForm, sendExpired } from './page-replies';
import { defaultKeyNickname, keyAddedPage } from './webauthn-pages';
import type { SignInMethod } from './saml-response';

const optionsBody = z.strictObject({ csrfToken: z.string() });
const credentialForm = z.strictObject({
  csrfToken: z.string(),
  // The browser's JSON answer, parsed and checked by the verifier.
  credential: z.string().max(6000),
  nickname: z.string().max(255).optional(),
});

/** The browser's answer as JSON, or null when it is not an object. */
function parseCredential(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

interface MfaSteps {
  stateAccount(
    ctx: AppContext,
    state: LoginState | null,
  ): Promise<{ account: Account; device: ConfirmedDevice | undefined } | null>;
  finish(
    reply: FastifyReply,
    session: Session,
    state: LoginState,
    account: Account,
    claim: AttemptClaim | undefined,
    pairPhone?: boolean,
    clientAddress?: string,
    method?: SignInMethod,
  ): Promise<FastifyReply>;
  showPasscode(
    reply: FastifyReply,
    session: Session,
    account: Account,
    status?: number,
    error?: string,
    providerDevice?: MfaDevice | null,
  ): Promise<FastifyReply>;
  showEnrol(
    reply: FastifyReply,
    session: Session,
    state: LoginState,
    account: Account,
    status?: number,
    error?: string,
  ): Promise<FastifyReply>;
  showGraceAgain(
    reply: FastifyReply,
    session: Session,
    account: Account,
    status: number,
    error: string,
  ): Promise<FastifyReply>;
}

/**
 * The IdP's security key and passkey steps: sign in with one (options, then the assertion), and
 * at first sign-in enrol one instead of an authenticator app (options, then the attestation),
 * add another, and continue.
 */
export function registerWebauthnRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  bodyLimit: number,
  steps: MfaSteps,
): void {
  const hospitalName = ctx.config.HOSPITAL_NAME;
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  /** An account may enrol a key here only while it has no second factor, or just enrolled one. */
  async function mayEnrol(
    state: LoginState,
    found: { account: Account; device: ConfirmedDevice | undefined },
  ) {
    // A passcode or push just passed during the grace ("Add One Now"), or a key was just enrolled.
    if (state.keyEnrolled || state.passedWith) return true;
    return !found.device && (await countCredentials(ctx.db, found.account.id)) === 0;
  }

  app.post('/idp/mfa/webauthn/options', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(ctx, session);
    const found = await steps.stateAccount(ctx, state);
    if (!found || !parseForm(optionsBody, request.body))
      return noStore(reply).status(400).send({ message: 'This sign-in has expired.' });
    const options = await authenticationOptions(ctx, session, found.account.id, 'signin');
    if (!options) return noStore(reply).status(400).send({ message: webauthnMessages.notRegistered });
    return noStore(reply).send({ options });
  });

  app.post('/idp/mfa/webauthn', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(ctx, session);
    const found = await steps.stateAccount(ctx, state);
    if (!state || !found) return sendExpired(ctx, reply);
    const form = parseForm(credentialForm, request.body);
    const response = form ? parseCredential(form.credential) : null;
    if (!response) return steps.showPasscode(reply, session, found.account, 400, webauthnMessages.cancelled);
    const outcome = await verifyAuthentication(ctx, session, {
      account: found.account,
      response: response as never,
      purpose: 'signin',
      clientAddress: request.ip,
    });
    if (!outcome.ok) return steps.showPasscode(reply, session, found.account, 401, outcome.message);
    await recordAudit(ctx.db, {
      action: 'signin.mfa',
      outcome: 'success',
      actor: { id: found.account.id, username: found.account.username },
      target: { id: found.account.id, username: found.account.username },
      clientAddress: request.ip,
      details: { method: 'webauthn' },
    });
    return steps.finish(reply, session, state, found.account, undefined, false, request.ip, 'webauthn');
  });

  app.post('/idp/mfa/webauthn/register-options', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(ctx, session);
    const found = await steps.stateAccount(ctx, state);
    if (!state || !found || !parseForm(optionsBody, request.body))
      return noStore(reply).status(400).send({ message: 'This sign-in has expired.' });
    if (!(await mayEnrol(state, found)))
      return noStore(reply).status(403).send({ message: 'Add security keys from your profile.' });
    const result = await registrationOptions(ctx, session, found.account);
    if (!result.ok) return noStore(reply).status(409).send({ message: result.message });
    return noStore(reply).send({ options: result.options });
  });

  app.post('/idp/mfa/webauthn/register', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(ctx, session);
    const found = await steps.stateAccount(ctx, state);
    if (!state || !found) return sendExpired(ctx, reply);
    if (!(await mayEnrol(state, found)))
      return steps.showPasscode(reply, session, found.account, 403, 'Add security keys from your profile.');
    const form = parseForm(credentialForm, request.body);
    const response = form ? parseCredential(form.credential) : null;
    const outcome = response
      ? await verifyRegistration(ctx, session, {
          account: found.account,
          response: response as never,
          nickname: form?.nickname ?? '',
          clientAddress: request.ip,
        })
      : ({ ok: false, message: webauthnMessages.cancelled } as const);
    if (!outcome.ok) {
      if (state.keyEnrolled) return sendAdded(reply, session, '', 400, outcome.message);
      if (state.passedWith) return steps.showGraceAgain(reply, session, found.account, 400, outcome.message);
      return steps.showEnrol(reply, session, state, found.account, 400, outcome.message);
    }
    await writeLoginState(ctx.db, session, { ...state, keyEnrolled: true });
    return sendAdded(reply, session, outcome.nickname, 200);
  });

  function sendAdded(
    reply: FastifyReply,
    session: Session,
    nickname: string,
    status: number,
    error?: string,
  ) {
    return sendPage(
      reply,
      status,
      keyAddedPage({
        hospitalName,
        csrfToken: session.csrfToken,
        nickname,
        defaultNickname: defaultKeyNickname(ctx),
        error,
      }),
    );
  }

  /** After enrolling a key at first sign-in: the key was the second factor; answer the SP. */
  app.post('/idp/mfa/continue', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(ctx, session);
    const found = await steps.stateAccount(ctx, state);
    if (!state || !found || !state.keyEnrolled || !parseForm(optionsBody, request.body))
      return sendExpired(ctx, reply);
    await recordAudit(ctx.db, {
      action: 'signin.mfa',
      outcome: 'success',
      actor: { id: found.account.id, username: found.account.username },
      target: { id: found.account.id, username: found.account.username },
      clientAddress: request.ip,
      details: { method: 'webauthn', at: 'enrolment' },
    });
    return steps.finish(reply, session, state, found.account, undefined, false, request.ip, 'webauthn');
  });
}
