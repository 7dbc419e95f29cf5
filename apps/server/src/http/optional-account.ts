import type { FastifyRequest } from 'fastify';
import type { Account } from '../platform/db-schema';

/**
 * The signed-in account on a route anonymous callers may use too; null when there is none or
 * it is no longer active. The session plugin loads it once per request.
 */
export async function optionalAccount(_db: unknown, request: FastifyRequest): Promise<Account | null> {
  return request.account;
}
