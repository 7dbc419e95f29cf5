import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { pruneSessions } from '../http/session';
import { prunePushChallenges } from '../identity/mfa/push';
import { pruneRateLimits } from '../identity/rate-limit';
import type { Db } from './db';

const EVERY_MS = 10 * 60_000;

/** Periodic clean-up of expired rows; safe to run on every instance at once. */
export function startHousekeeping(db: Db, log: FastifyBaseLogger): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const run = async () => {
    try {
      await pruneSessions(db);
      await pruneRateLimits(db);
      await prunePushChallenges(db);
      await db
        .deleteFrom('saml_requests')
        .where('expires_at', '<', sql<Date>`now()`)
        .execute();
      await db
        .deleteFrom('saml_assertions')
        .where('expires_at', '<', sql<Date>`now()`)
        .execute();
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
