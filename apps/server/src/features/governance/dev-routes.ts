import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/app-context';
import { durationMs, OffsetClock } from '../../platform/clock';
import { isLoopback } from '../../platform/loopback';
import { recordAudit } from '../../identity/audit';
import { sweepNow } from '../../identity/governance/sweeper';
import { writeClockOffset } from '../../store/settings';

const clockBody = z.union([
  z.object({ advance: z.string().min(2).max(40) }).strict(),
  z.object({ set: z.iso.datetime({ offset: true }) }).strict(),
]);

const notFound = async (_request: unknown, reply: FastifyReply) =>
  reply.status(404).type('text/plain; charset=utf-8').send('Not found');

/** Who made the call, for the audit trail (a signed-in session's account, or nobody). */
const actorOf = (request: FastifyRequest) =>
  request.account ? { id: request.account.id, username: request.account.username } : null;

/**
 * The standalone test clock's calls (GOVERNANCE.md §2.1), for trying governance and for the browser
 * journeys: `POST /dev/clock` moves the time every governance path reads (`{ "advance": "P15D" }` or
 * `{ "set": "2027-03-01T09:00:00Z" }`; the offset is kept in the database) and
 * `POST /dev/governance/run` runs the sweeper now. Both are audited (`clock.set`,
 * `governance.run`). Only with TEST_CLOCK=1 in standalone mode, only to clients on this machine,
 * and only as the web app calls (`x-pra-api-call: true`, which another site's page cannot send
 * without a preflight this server never grants); everything else, and production, gets 404.
 */
export const governanceDevRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const clock = ctx.clock;
  if (!ctx.config.isStandalone || !ctx.config.TEST_CLOCK || !(clock instanceof OffsetClock)) {
    app.all('/dev/clock', notFound);
    app.all('/dev/governance/run', notFound);
    return;
  }
  app.addHook('onRequest', async (request, reply) => {
    if (!isLoopback(request.raw.socket.remoteAddress) || request.headers['x-pra-api-call'] !== 'true')
      return notFound(request, reply);
  });

  app.post('/dev/clock', async (request, reply) => {
    const parsed = clockBody.safeParse(request.body);
    let target: Date | null = null;
    if (parsed.success) {
      try {
        target =
          'advance' in parsed.data
            ? new Date(clock.now().getTime() + durationMs(parsed.data.advance))
            : new Date(parsed.data.set);
      } catch {
        target = null;
      }
    }
    if (!target) {
      return reply.status(400).send({
        errors: [
          {
            message:
              'Send { "advance": "P15D" } (weeks, days, hours, minutes, seconds) or { "set": "<ISO date-time>" }',
          },
        ],
      });
    }
    const from = clock.now();
    const offset = clock.offsetFor(target);
    await ctx.db.transaction().execute(async (tx) => {
      await writeClockOffset(tx, offset);
      await recordAudit(tx, {
        action: 'clock.set',
        outcome: 'success',
        actor: actorOf(request),
        clientAddress: request.ip,
        details: { from: from.toISOString(), to: target.toISOString() },
      });
    });
    clock.setOffset(offset);
    return reply.send({ now: clock.now().toISOString(), offsetMs: offset });
  });

  app.post('/dev/governance/run', async (request, reply) => {
    const result = await sweepNow({ db: ctx.db, clock, config: ctx.config, log: request.log });
    await recordAudit(ctx.db, {
      action: 'governance.run',
      outcome: result.ran ? 'success' : 'failure',
      actor: actorOf(request),
      clientAddress: request.ip,
      details: { at: result.at.toISOString(), ran: result.ran, via: 'dev' },
    });
    return reply.send({ ran: result.ran, at: result.at.toISOString(), steps: result.steps });
  });
};
