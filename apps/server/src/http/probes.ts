import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../platform/app-context';
import { isDatabaseUp, migrationsPending } from '../platform/db';

/** The load balancer's probes; paths outside /api, as orchestrators expect them. */
export const probes = { liveness: '/healthz', readiness: '/readyz' } as const;

/**
 * Liveness answers as long as the process serves HTTP (no database: a database outage must not
 * get every instance restarted). Readiness says whether this instance should get traffic: the
 * database answers and carries every migration; while draining, the draining hook answers 503
 * before this handler runs. Both say no more than ready or not: the reason goes to the log.
 */
export function registerProbes(
  app: FastifyInstance,
  ctx: AppContext,
  /** False while load shedding's measurements still carry the start's own lag. */
  sheddingSettled: () => boolean = () => true,
): void {
  const text = (reply: FastifyReply, status: number, body: string) =>
    reply.status(status).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(body);

  app.get(probes.liveness, { config: { audits: false } }, async (_request, reply) =>
    text(reply, 200, 'ok\n'),
  );

  // Migrations never un-apply while the process runs: once seen complete, not asked again.
  let migrated = false;
  app.get(probes.readiness, { config: { audits: false } }, async (request, reply) => {
    let reason: string | null = null;
    if (!sheddingSettled()) reason = 'starting: load-shedding measurements not settled yet';
    else if (!(await isDatabaseUp(ctx.db))) reason = 'database unreachable';
    else if (!migrated) {
      const pending = await migrationsPending(ctx.db).catch(() => ['(unknown)']);
      if (pending.length > 0) reason = `migrations not applied: ${pending.join(', ')}`;
      else migrated = true;
    }
    if (reason === null) {
      // The identity service is reported, never a reason to take the instance out: reads still work.
      const directory = await ctx.identityStore.health();
      return text(reply, 200, `ready\nidentity service: ${directory.ok ? 'available' : 'unavailable'}\n`);
    }
    // The start's own moment of not being ready is no news for the log.
    if (sheddingSettled()) request.log.warn({ reason }, 'readiness probe failed');
    return text(reply, 503, 'not ready\n');
  });
}
