import type { FastifyInstance, FastifyReply } from 'fastify';
import { inputText } from '@pra/contracts';
import { z } from 'zod';
import type { AppContext } from '../platform/app-context';
import { abortOnClose } from '../http/abort-on-close';
import { sendPage } from '../http/server-page';
import type { Session } from '../http/session';
import { findAccountById } from '../identity/accounts';
import type { Account } from '../platform/db-schema';
import { clearFailures, lockKey } from './lockout';
import { readLoginState, writeLoginState, type LoginState } from './login-state';
import { confirmEnrolment, findConfirmedDevice, verifyPasscode, verifyPush } from './mfa-step';
import { mfaProvider } from '../identity/mfa/provider';
import { pairPhone as pairPhoneWith } from '../identity/mfa/push';
import { checkCsrf, parseForm, sendExpired } from './page-replies';
import { enrolPage, passcodePage, postResponsePage } from './pages';
import { samlUrls } from './saml-entities';
import { createSignedResponse } from './saml-response';
import { newTotpSecret, secretGroups, totpQrDataUrl } from '../identity/mfa/totp';

const mfaForm = z.strictObject({
  csrfToken: z.string(),
  passcode: inputText().max(20),
  nickname: inputText().max(255).optional(),
  pairPhone: z.literal('on').optional(),
});
const pushForm = z.strictObject({ csrfToken: z.string() });

/** The account the password step let through, still active (it may have been disabled since). */
async function stateAccount(ctx: AppContext, state: LoginState | null): Promise<Account | null> {
  if (!state || state.stage !== 'mfa' || !state.accountId) return null;
  const account = await findAccountById(ctx.db, state.accountId);
  return account?.status === 'active' ? account : null;
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
    });
    return sendPage(reply, status, page);
  }

  /** Both factors passed: answer the SP and forget the sign-in in progress. */
  async function finish(
    reply: FastifyReply,
    session: Session,
    state: LoginState,
    account: Account,
    pairPhone = false,
    clientAddress = '',
  ) {
    await clearFailures(ctx.db, lockKey(account, account.username));
    const samlResponse = createSignedResponse(ctx, state, {
      username: account.username,
      givenName: account.given_name,
      familyName: account.family_name,
      email: account.email,
    });
    await writeLoginState(ctx.db, session, null);
    const pairing = pairPhone
      ? await pairPhoneWith(ctx, {
          account,
          nickname: 'Phone paired at enrolment',
          clientAddress,
          details: { at: 'enrolment' },
        })
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

  /** The passcode page, with Send Push when the account has a paired authenticator. */
  async function showPasscode(
    reply: FastifyReply,
    session: Session,
    account: Account,
    status = 200,
    error?: string,
  ) {
    const device = await mfaProvider(ctx).device(account.id);
    const pushTo = device?.canPush ? 'your paired phone' : null;
    return sendPage(
      reply,
      status,
      passcodePage({ hospitalName, csrfToken: session.csrfToken, error, pushTo }),
    );
  }

  app.get('/idp/mfa', async (request, reply) => {
    const session = request.session;
    const state = readLoginState(session);
    const account = await stateAccount(ctx, state);
    if (!session || !state || !account) return sendExpired(ctx, reply);
    if (await findConfirmedDevice(ctx, account.id)) return showPasscode(reply, session, account);
    return showEnrol(reply, session, state, account);
  });

  app.post('/idp/mfa', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(session);
    const account = await stateAccount(ctx, state);
    if (!state || !account) return sendExpired(ctx, reply);
    const form = parseForm(mfaForm, request.body);
    const passcode = form?.passcode.trim() ?? '';
    const device = await findConfirmedDevice(ctx, account.id);
    const formatError = /^\d{6}$/.test(passcode) ? null : 'The passcode must be exactly 6 digits.';

    if (device) {
      const outcome = formatError
        ? { ok: false as const, message: formatError }
        : await verifyPasscode(ctx, { account, device, code: passcode, clientAddress: request.ip });
      if (outcome.ok) return finish(reply, session, state, account);
      return showPasscode(reply, session, account, formatError ? 400 : 401, outcome.message);
    }

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
    if (outcome.ok) return finish(reply, session, state, account, form?.pairPhone === 'on', request.ip);
    return showEnrol(reply, session, state, account, 401, outcome.message, nickname);
  });

  /** Push at sign-in: waits for the paired phone's answer, then finishes like a passcode. */
  app.post('/idp/mfa/push', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(session);
    const account = await stateAccount(ctx, state);
    if (!state || !account || !parseForm(pushForm, request.body)) return sendExpired(ctx, reply);
    if (!(await findConfirmedDevice(ctx, account.id))) return sendExpired(ctx, reply);
    const outcome = await verifyPush(ctx, {
      account,
      clientAddress: request.ip,
      signal: abortOnClose(reply),
    });
    if (outcome.ok) return finish(reply, session, state, account);
    return showPasscode(reply, session, account, 401, outcome.message);
  });
}
