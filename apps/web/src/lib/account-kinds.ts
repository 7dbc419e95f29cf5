/**
 * Who is a vendor, an employee BRM, an admin, for everything in the web app (route guards, cards
 * and nav, approvals buttons, registration on behalf): the contracts' rule, the server's too.
 */
export {
  isAdmin,
  isAdminOrAuditor,
  isBrmOrAdmin,
  isEmployeeBrm,
  isVendor,
  type AccountKinds,
} from '@pra/contracts/account-kinds';
