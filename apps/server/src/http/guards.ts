import type { FastifyRequest } from 'fastify';
import type { Account } from '../platform/db-schema';
import type { AppContext } from './context';
import { isInMaintenance } from '../identity/maintenance';
import { AppError, messages } from './errors';

const guardMessages = {
  notBrm: 'Unauthorized: User does not have a BRM role',
  notEmployeeBrm: 'Unauthorized: User is not an employee BRM',
  notVendor: 'Only vendor accounts can do this.',
  notAdmin: 'Unauthorized: User is not an admin',
  iiqUnavailable: 'Account management features are currently unavailable',
} as const;

/** Pure role rules, so they can be tested without HTTP. */
export const policies = {
  isBrmOrAdmin: (a: Account) => a.type === 'employee' && (a.is_employee_brm || a.is_admin),
  isEmployeeBrm: (a: Account) => a.type === 'employee' && a.is_employee_brm,
  isVendor: (a: Account) => a.type === 'vendor',
  isAdmin: (a: Account) => a.type === 'employee' && a.is_admin,
};

function signedIn(request: FastifyRequest): Account {
  if (!request.account) throw new AppError('unauthenticated', messages.signInRequired);
  return request.account;
}

/** The guards, bound to the app's context; use them as route `preHandler`s, in this order. */
export function createGuards(ctx: AppContext) {
  // The session plugin has already loaded the active account (or none) for this request.
  const requireLogin = async (request: FastifyRequest) => {
    signedIn(request);
  };
  return {
    requireLogin,
    requireBrmOrAdmin: async (request: FastifyRequest) => {
      if (!policies.isBrmOrAdmin(signedIn(request))) throw new AppError('forbidden', guardMessages.notBrm);
    },
    requireEmployeeBrm: async (request: FastifyRequest) => {
      if (!policies.isEmployeeBrm(signedIn(request)))
        throw new AppError('forbidden', guardMessages.notEmployeeBrm);
    },
    requireAdmin: async (request: FastifyRequest) => {
      if (!policies.isAdmin(signedIn(request))) throw new AppError('forbidden', guardMessages.notAdmin);
    },
    requireVendor: async (request: FastifyRequest) => {
      if (!policies.isVendor(signedIn(request))) throw new AppError('forbidden', guardMessages.notVendor);
    },
    /** Account-changing calls while the identity service is in maintenance answer 503. */
    requireIdentityService: async () => {
      if (await isInMaintenance(ctx)) throw new AppError('serviceUnavailable', guardMessages.iiqUnavailable);
    },
  };
}
