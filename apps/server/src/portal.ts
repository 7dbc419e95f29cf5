import { inspect } from 'node:util';
import pino, { type LoggerOptions } from 'pino';
import { buildApp } from './app';
import { loggerOptions } from './platform/logger';
import { exposureWarning, type Config } from './config';
import { registerDraining } from './http/draining';
import { closeServer, listenWhileStarting } from './http/starting-listener';
import { readOutboxState } from './store/outbox';
import { startHousekeeping } from './identity/housekeeping';
import { startIdpMetadataRefresh } from './identity/idp-metadata-refresh';
import { startGovernanceSweeper } from './identity/governance/sweeper';
import { bindMetricsSources } from './platform/metrics';
import { startMetricsListener } from './platform/metrics-listener';
import { listenFailure } from './platform/listen';
import { SMTP_CONNECTIONS } from './platform/mailer';
import { startOutboxWorker } from './identity/outbox-worker';
import { startJobWorker } from './identity/jobs';
import { terminateJobKind } from './features/terminate-vendors/terminate-job';
import { startProvisioningWorker } from './identity/directory/provisioning-worker';
import { startReconcileSchedule } from './identity/directory/reconcile';
import { type Runtime } from './runtime';
import { openPortalData, readConfig } from './startup';
import type { FastifyBaseLogger } from 'fastify';

export interface PortalStart {
  /**
   * Settles when the web app's build is ready (`npm start` on a fresh clone builds it while this
   * process creates the database); the portal listens only after it. Rejects: the start fails.
   */
  webBuild?: Promise<void>;
}

/** Starts the portal: database, app, workers, listener, and shutdown on SIGTERM or SIGINT. */
export async function runPortal(options: PortalStart = {}): Promise<void> {
  const config = readConfig();
  const warning = exposureWarning(config);
  if (warning) process.stderr.write(`${warning}\n`);
  // Start-up messages (e.g. waiting for the database) before the app and its logger exist.
  const startupLog = pino(loggerOptions(config.LOG_LEVEL) as LoggerOptions);
  // Listening from the first moment: while the database is awaited (up to
  // DATABASE_STARTUP_WAIT_SECONDS) and the app is built, the liveness probe says alive and
  // everything else answers 503; the app takes the same socket over once it is ready.
  const listener = await listenWhileStarting(config.PORT, config.HOST).catch((error: unknown) => {
    throw listenFailure('PORT, HOST', config.HOST, config.PORT, error);
  });
  let runtime: Runtime;
  try {
    runtime = await openPortalData(config, startupLog);
  } catch (error) {
    await listener.close();
    throw error;
  }
  if (options.webBuild) {
    try {
      await options.webBuild;
    } catch (error) {
      await listener.close();
      await runtime.close();
      throw error;
    }
  }
  const app = await buildApp(runtime.ctx, { serverFactory: (handler) => listener.adopt(handler) });

  const housekeeping = startHousekeeping(runtime.ctx.db, app.log);
  const idpMetadata = startIdpMetadataRefresh(runtime.ctx, app.log);
  const sweeper = startGovernanceSweeper(
    { db: runtime.ctx.db, clock: runtime.ctx.clock, config, log: app.log },
    config.GOVERNANCE_SWEEP_MINUTES,
  );
  const outbox = startOutboxWorker(runtime.ctx.db, {
    transport: runtime.mailer.transport,
    from: config.MAIL_FROM,
    isStandalone: config.isStandalone,
    concurrency: SMTP_CONNECTIONS,
    log: app.log,
  });
  // Long work runs on a connection of its own (PostgreSQL: AppContext.longWorkDb), so it never
  // waits for, nor takes, one of the requests' pool; one job at a time per instance, one short
  // transaction per step.
  const jobs = startJobWorker(runtime.ctx.longWorkDb, [terminateJobKind], {
    clock: runtime.ctx.clock,
    log: app.log,
  });
  const provisioning =
    runtime.ctx.identityStore.kind === 'ldap'
      ? startProvisioningWorker(runtime.ctx.db, runtime.ctx.identityStore, runtime.ctx.clock, {
          log: app.log,
        })
      : null;
  const reconcile =
    runtime.ctx.identityStore.kind === 'ldap'
      ? startReconcileSchedule(
          runtime.ctx.db,
          runtime.ctx.identityStore,
          runtime.ctx.clock,
          config.DIRECTORY_RECONCILE_HOURS,
          app.log,
        )
      : null;
  const draining = registerDraining(app);
  await app.ready();
  listener.open();
  app.log.info(`PRA Portal (${config.PRA_MODE}) listening at ${config.publicUrl}`);
  const metrics = await openMetrics(config, runtime, app.log);

  let stopping = false;
  // Shutdown, all within the grace: drain (answers say `Connection: close`, the service check
  // 503), while the outbox worker stops between mails and hands its unsent claims back; then stop
  // listening and let requests in flight finish (fastify answers later ones 503); close the pool.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, graceMs);
    force.unref();
    try {
      draining.start();
      reconcile?.stop();
      // The job worker stops between steps and hands its lease back: another instance (or this one
      // after its restart) resumes the job where its last committed step left it.
      const workersStopped = Promise.all([
        outbox.stop(graceMs / 2),
        provisioning?.stop(graceMs / 2),
        housekeeping.stop(),
        jobs.stop(graceMs / 2),
        idpMetadata.stop(),
        sweeper.stop(),
      ]);
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      await draining.stopAccepting();
      // An export takes minutes, more than the grace: it ends here (its download is cut, which
      // the client sees as unfinished, and logged), not at the grace's end with the process.
      await runtime.ctx.exportWorkers?.close();
      await app.close();
      // fastify closes a server it did not open only this far: its idle connections go here.
      await closeServer(listener.server);
      await metrics?.close();
      await workersStopped;
      await runtime.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * The metrics listener, when configured. Standalone's default one is a convenience: a port
 * already taken (a second portal on the machine) is a warning, not a failed start.
 */
async function openMetrics(config: Config, runtime: Runtime, log: FastifyBaseLogger) {
  if (!config.metrics) return null;
  bindMetricsSources({
    outboxState: () => readOutboxState(runtime.ctx.db),
    poolStats: () => runtime.ctx.poolStats(),
  });
  const { port, host, byDefault } = config.metrics;
  try {
    const listener = await startMetricsListener(port, host);
    log.info(`metrics at http://${host}:${listener.port}/metrics`);
    return listener;
  } catch (error) {
    if (!byDefault) throw listenFailure('METRICS_PORT, METRICS_HOST', host, port, error);
    log.warn({ err: error }, `metrics listener on ${host}:${port} not started`);
    return null;
  }
}

/** Ends the process after a failed start, with the reason (and its cause) on stderr. */
export function reportStartFailure(error: unknown): never {
  process.stderr.write(
    `PRA Portal failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  if (error instanceof Error && error.cause)
    process.stderr.write(
      `  cause: ${error.cause instanceof Error ? String(error.cause) : inspect(error.cause)}\n`,
    );
  process.exit(1);
}
