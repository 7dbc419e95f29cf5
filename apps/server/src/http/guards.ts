import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  isAdmin,
  isAdminOrAuditor,
  isAuditor,
  isBrmOrAdmin,
  isEmployeeBrm,
  isVendor,
} from '../store/account-kinds';
import type { Account } from '../platform/db-schema';
import type { AppContext } from '../platform/app-context';
import { AppError, messages } from '../platform/app-error';
import { IIQ_UNAVAILABLE, identityServiceUp } from '../identity/maintenance';
import { recordAudit } from '../identity/audit';
import { aupMessages } from '@pra/contracts';

const guardMessages = {
  notBrm: 'Unauthorized: User does not have a BRM role',
  notAdmin: 'Unauthorized: User is not an admin',
  notVendor: 'Unauthorized: This feature is for vendor accounts',
  auditorReadOnly: 'Unauthorized: Auditors have read-only access',
} as const;

function signedIn(request: FastifyRequest): Account {
  if (!request.account) throw new AppError('unauthenticated', messages.signInRequired);
  return request.account;
}

/**
 * A signed-in person calling a BRM or admin call its role does not allow: the attempt is audited
 * (outcome `denied`, the call's method and route pattern) before the 403, so the security team
 * sees a vendor probing the BRM or admin API.
 */
async function refuse(
  ctx: AppContext,
  request: FastifyRequest,
  account: Account,
  message: string,
): Promise<never> {
  await recordAudit(ctx.db, {
    action: 'access.role-refused',
    outcome: 'denied',
    actor: { id: account.id, username: account.username },
    clientAddress: request.ip,
    details: { method: request.method, route: request.routeOptions.url ?? '' },
  });
  throw new AppError('forbidden', message);
}

/**
 * The guards, bound to the app's context (role rules from identity/account-kinds). The sign-in and
 * role guards are route `onRequest` hooks, in this order: an anonymous or wrongly-roled call is
 * refused (401/403) before its body is read or its parameters validated. `requireIdentityService`
 * is a `preHandler` (after validation and the CSRF check).
 */
export function createGuards(ctx: AppContext) {
  // The session plugin has already loaded the active account (or none) for this request.
  // A callback hook (no promise): it waits for nothing, and every signed-in call runs it.
  const requireLogin = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    try {
      signedIn(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
  return {
    requireLogin,
    requireBrmOrAdmin: async (request: FastifyRequest) => {
      const account = signedIn(request);
      if (!isBrmOrAdmin(account)) await refuse(ctx, request, account, guardMessages.notBrm);
    },
    /** Manage Access: a vendor for itself, a BRM or admin for the vendors it manages; no one else. */
    requireVendorOrManager: async (request: FastifyRequest) => {
      const account = signedIn(request);
      if (!isVendor(account) && !isBrmOrAdmin(account))
        await refuse(ctx, request, account, messages.forbidden);
    },
    /** Terminate Vendors: employee BRMs only (spec section 6 does not permit it to admins as such). */
    requireEmployeeBrm: async (request: FastifyRequest) => {
      if (!isEmployeeBrm(signedIn(request))) throw new AppError('forbidden', guardMessages.notBrm);
    },
    /** Vendor self-service (profile, password change): BRMs and admins are refused (spec section 6). */
    requireVendor: async (request: FastifyRequest) => {
      if (!isVendor(signedIn(request))) throw new AppError('forbidden', guardMessages.notVendor);
    },
    requireAdmin: async (request: FastifyRequest) => {
      const account = signedIn(request);
      if (!isAdmin(account)) await refuse(ctx, request, account, guardMessages.notAdmin);
    },
    /** Reports, review evidence, the audit trail: admins, and auditors without the admin flag. */
    requireAdminOrAuditor: async (request: FastifyRequest) => {
      const account = signedIn(request);
      if (!isAdminOrAuditor(account)) await refuse(ctx, request, account, guardMessages.notAdmin);
    },
    /** Governance's auditor may read, never change (GOVERNANCE.md §2.5): every change call is refused, audited. */
    /**
     * GOVERNANCE.md §8.2: while a vendor's Acceptable Use Policy acceptance is overdue (the sweep
     * set the block), every signed-in call but the attestation's, the session's and logout answers
     * 403. A callback hook: the session lookup already read the flag with the account.
     */
    refuseAupOverdue: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      const account = request.account;
      if (account && account.type === 'vendor' && account.aup_overdue_since !== null) {
        return done(new AppError('forbidden', aupMessages.blocked));
      }
      done();
    },
    refuseAuditor: async (request: FastifyRequest) => {
      const account = signedIn(request);
      if (isAuditor(account)) await refuse(ctx, request, account, guardMessages.auditorReadOnly);
    },
    /** Account-changing calls while the identity service is in maintenance or down answer 503. */
    requireIdentityService: async () => {
      if (!(await identityServiceUp(ctx))) throw new AppError('serviceUnavailable', IIQ_UNAVAILABLE);
    },
  };
}
