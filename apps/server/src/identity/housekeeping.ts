import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../platform/db';
import { prunePushChallenges } from '../store/factors';
import * as rateLimits from '../store/rate-limits';
import { pruneExpired } from '../store/saml';
import * as sessions from '../store/sessions';

const EVERY_MS = 10 * 60_000;

/** Periodic clean-up of expired rows; safe to run on every instance at once. */
export function startHousekeeping(db: Db, log: FastifyBaseLogger): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const run = async () => {
    try {
      await sessions.prune(db);
      await rateLimits.prune(db);
      await prunePushChallenges(db);
      await pruneExpired(db);
    } catch (error) {
      log.warn({ err: error }, 'housekeeping failed; will retry');
    }
  };
  const timer = setInterval(() => {
    running = run();
  }, EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
