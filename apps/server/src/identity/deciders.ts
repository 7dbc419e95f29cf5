import type { Db, Tx } from '../platform/db';
import { activeAdminEmails } from '../store/accounts';
import { activeBrmEmails } from '../store/grants';

/**
 * Whom to mail about a request of the organization (a registration, an access request): its active
 * BRMs, or — when it has none — the active admins, so that no registration waits unseen. (Who may
 * decide is the request policy's: policies/request.ts.)
 */
export async function decidersOf(db: Db | Tx, organizationId: string): Promise<string[]> {
  const brms = await activeBrmEmails(db, organizationId);
  if (brms.length > 0) return brms;
  return activeAdminEmails(db);
}
