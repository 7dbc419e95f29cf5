import type { FastifyInstance } from 'fastify';
import { containsUnstorableText, inputText } from '@pra/contracts';
import { z } from 'zod';
import type { AppContext } from '../platform/app-context';
import { sendPage } from '../http/server-page';
import { readLoginState, writeLoginState } from './login-state';
import { checkCsrf, parseForm, sendExpired } from './page-replies';
import { loginPage } from './pages';
import { checkPassword } from './password-step';

const loginForm = z.strictObject({
  csrfToken: z.string(),
  username: inputText().max(255),
  password: inputText().max(1024),
});

/** GET and POST /idp/login: the username and password step. */
export function registerLoginRoutes(app: FastifyInstance, ctx: AppContext, bodyLimit: number): void {
  const hospitalName = ctx.config.HOSPITAL_NAME;

  app.get('/idp/login', async (request, reply) => {
    const session = request.session;
    if (!session || !readLoginState(ctx, session)) return sendExpired(ctx, reply);
    return sendPage(reply, 200, loginPage({ hospitalName, csrfToken: session.csrfToken }));
  });

  app.post('/idp/login', { bodyLimit }, async (request, reply) => {
    const session = request.session;
    if (!checkCsrf(ctx, session, request.body, reply)) return reply;
    const state = readLoginState(ctx, session);
    if (!state) return sendExpired(ctx, reply);
    const form = parseForm(loginForm, request.body);
    const page = (status: number, error: string, username = '') =>
      sendPage(reply, status, loginPage({ hospitalName, csrfToken: session.csrfToken, error, username }));
    if (!form && containsUnstorableText(request.body)) {
      return page(400, 'Your username or password contains characters that are not allowed.');
    }
    if (!form || !form.username.trim() || !form.password) {
      return page(400, 'Enter your username and password.', form?.username);
    }

    const outcome = await checkPassword(
      ctx,
      { username: form.username, password: form.password, clientAddress: request.ip },
      (accountId) =>
        writeLoginState(ctx.db, session, {
          ...state,
          stage: 'mfa',
          accountId,
          pendingSecretEncrypted: undefined,
        }),
    );
    if (!outcome.ok) return page(401, outcome.message, form.username);
    return reply.redirect('/idp/mfa', 303);
  });
}
