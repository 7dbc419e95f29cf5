import type { FastifyRequest } from 'fastify';
import { findAccountById } from '../identity/accounts';
import type { Db } from '../platform/db';
import type { Account } from '../platform/db-schema';

/**
 * The signed-in account on a route anonymous callers may use too; null when there is none or
 * it is no longer active (the same rule as `requireLogin`).
 */
export async function optionalAccount(db: Db, request: FastifyRequest): Promise<Account | null> {
  const accountId = request.session?.accountId;
  const account = accountId ? await findAccountById(db, accountId) : undefined;
  return account?.status === 'active' ? account : null;
}
