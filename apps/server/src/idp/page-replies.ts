import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../platform/app-context';
import { sendPage } from '../http/server-page';
import { csrfTokenMatches, type Session } from '../http/session';
import { messagePage } from './pages';

export function sendMessage(
  ctx: AppContext,
  reply: FastifyReply,
  status: number,
  heading: string,
  message: string,
) {
  return sendPage(reply, status, messagePage({ hospitalName: ctx.config.HOSPITAL_NAME, heading, message }));
}

/** The sign-in was not started from the portal, or took too long. */
export function sendExpired(ctx: AppContext, reply: FastifyReply) {
  return sendMessage(
    ctx,
    reply,
    400,
    'Sign-in expired',
    'This sign-in has expired or was not started from PRA Portal. Please start again from the portal.',
  );
}

/**
 * The synchronizer-token check for every IdP form: the token in the body must be the session's.
 * Returns false after answering 403.
 */
export function checkCsrf(
  ctx: AppContext,
  session: Session | null,
  body: unknown,
  reply: FastifyReply,
): session is Session {
  const given =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).csrfToken : undefined;
  if (session && csrfTokenMatches(session.csrfToken, given)) return true;
  void sendMessage(
    ctx,
    reply,
    403,
    'Session out of date',
    'Your session is out of date. Go back, reload the page and try again.',
  );
  return false;
}

/** Parses a form body with a strict schema; null when it does not fit. */
export function parseForm<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> | null {
  const parsed = schema.safeParse(body);
  return parsed.success ? parsed.data : null;
}
