import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/app-context';
import { sendPage } from '../../http/server-page';
import { isLoopback } from '../../platform/loopback';
import { findMessage, listMessages } from '../../store/outbox';
import { mailboxPage, messagePage, missingPage } from './pages';

const idParams = z.object({ id: z.string().uuid() });

const notFound = async (_request: unknown, reply: FastifyReply) =>
  reply.status(404).type('text/plain; charset=utf-8').send('Not found');

/**
 * The development mailbox: every outbox mail, readable in the browser and as JSON for the browser
 * journeys. Standalone only, and only to clients on this machine whatever HOST listens on (the
 * mails carry activation codes); everyone else, and production, gets 404 (the paths are claimed
 * so the SPA fallback does not answer them either).
 */
export const devMailboxRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const hospital = ctx.config.HOSPITAL_NAME;
  if (!ctx.config.isStandalone) {
    app.get('/dev/mailbox', notFound);
    app.get('/dev/mailbox/*', notFound);
    return;
  }
  // Encapsulated in this plugin: applies to the mailbox's routes only. The raw socket's peer,
  // never `request.ip`: with TRUST_PROXY that comes from X-Forwarded-For, which clients write.
  app.addHook('onRequest', async (request, reply) => {
    if (!isLoopback(request.raw.socket.remoteAddress)) return notFound(request, reply);
  });

  app.get('/dev/mailbox', async (_request, reply) =>
    sendPage(reply, 200, mailboxPage(hospital, await listMessages(ctx.db))),
  );

  app.get('/dev/mailbox/api/messages', async (_request, reply) => {
    const rows = await listMessages(ctx.db);
    return reply.header('cache-control', 'no-store').send(
      rows.map((m) => ({
        id: m.id,
        to: m.recipient,
        subject: m.subject,
        text: m.text_body,
        createdAt: new Date(m.created_at).toISOString(),
      })),
    );
  });

  app.get('/dev/mailbox/:id', async (request, reply) => {
    const parsed = idParams.safeParse(request.params);
    const message = parsed.success ? await findMessage(ctx.db, parsed.data.id) : undefined;
    if (!message) return sendPage(reply, 404, missingPage(hospital));
    return sendPage(reply, 200, messagePage(hospital, message));
  });
};
