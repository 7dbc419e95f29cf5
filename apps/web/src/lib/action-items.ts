import type { CurrentUser } from '@pra/contracts';
import { adminRoutes, routes, routingRoutes } from '@pra/contracts/paths';
import { isAdmin, isAdminOrAuditor, isBrmOrAdmin, isEmployeeBrm, isVendor } from './account-kinds';
import { siteLinks } from './site-links';

export type ActionKey =
  | 'approvals'
  | 'accessReviews'
  | 'users'
  | 'terminateVendors'
  | 'profile'
  | 'manageAccess'
  | 'newUser'
  | 'away'
  | 'credentialVault'
  | 'userGuides'
  | 'administration';

/** One entry of the welcome page's card grid, mirrored by the top navigation. */
export interface ActionItem {
  key: ActionKey;
  label: string;
  description: string;
  /** An app route, or an external page opened in a new tab. */
  target: { kind: 'route'; to: string } | { kind: 'external'; href: string };
  /** Account-management entries are disabled while the identity service (IIQ) is unavailable. */
  disabled: boolean;
}

type ActionUser = Pick<CurrentUser, 'type' | 'isEmployeeBrm' | 'isAdmin' | 'iiqAvailable' | 'isAuditor'>;

interface ActionDefinition extends Omit<ActionItem, 'disabled'> {
  isFor: (user: ActionUser) => boolean;
  /** The description for this person, where it differs from `description`. */
  describe?: (user: ActionUser) => string | undefined;
  alwaysEnabled?: boolean;
}

const definitions: ActionDefinition[] = [
  {
    key: 'approvals',
    label: 'Approvals',
    description: 'Approve or deny new user requests',
    target: { kind: 'route', to: routes.pendingApprovals },
    isFor: isBrmOrAdmin,
  },
  {
    key: 'accessReviews',
    label: 'Access Reviews',
    description: 'Confirm which vendors still need access',
    target: { kind: 'route', to: routes.accessReviews },
    isFor: isBrmOrAdmin,
    // Decisions are the portal's own data (applied at the close), not IIQ's.
    alwaysEnabled: true,
  },
  {
    key: 'users',
    label: 'Users',
    description: 'Manage users within your orgs',
    target: { kind: 'route', to: routes.manageUsers },
    isFor: isBrmOrAdmin,
  },
  {
    key: 'terminateVendors',
    label: 'Terminate Vendors',
    description: 'Remove vendor access from all of your organizations',
    target: { kind: 'route', to: routes.terminateVendors },
    isFor: isEmployeeBrm,
  },
  {
    key: 'profile',
    label: 'Profile',
    description: 'Manage profile or change password',
    target: { kind: 'route', to: routes.profile },
    isFor: isVendor,
  },
  {
    key: 'manageAccess',
    label: 'Manage Access',
    description: 'Additional access for PRA organizations',
    target: { kind: 'route', to: routes.requestAccess },
    isFor: isVendor,
  },
  {
    key: 'newUser',
    label: 'New User',
    description: 'Register a new user',
    target: { kind: 'route', to: routes.newUser },
    isFor: isBrmOrAdmin,
  },
  {
    // GOVERNANCE.md §5.2: Away and Backup, a BRM's delegation while away (the portal's own data,
    // so it stays open while the identity service is down).
    key: 'away',
    label: 'Away and Backup',
    description: 'Away? Send your approvals to a backup',
    target: { kind: 'route', to: routingRoutes.away },
    isFor: isEmployeeBrm,
    alwaysEnabled: true,
  },
  {
    key: 'credentialVault',
    label: 'Credential Vault',
    description: 'Open the credential-vault tool for your remote sessions',
    target: { kind: 'external', href: siteLinks.credentialVault },
    isFor: isVendor,
    alwaysEnabled: true,
  },
  {
    key: 'administration',
    label: 'Administration',
    description: 'Organizations, people, system message, maintenance, mail and the audit trail',
    target: { kind: 'route', to: adminRoutes.root },
    // Auditors who are not admins reach its Reports and Audit trail only (GOVERNANCE.md §9.2).
    isFor: isAdminOrAuditor,
    describe: (user) => (isAdmin(user) ? undefined : 'Reports for auditors and the audit trail'),
    // Admins end maintenance there, so it stays open while account management is down.
    alwaysEnabled: true,
  },
  {
    key: 'userGuides',
    label: 'User Guides',
    description: 'Read the PRA Portal user guides',
    target: { kind: 'external', href: siteLinks.userGuides },
    isFor: () => true,
    alwaysEnabled: true,
  },
];

/**
 * The actions a person may see, in the welcome grid's order. Anonymous visitors get only the
 * user guides. Everything except the vault tool and the guides is disabled while IIQ is down.
 */
export function actionItems(user: ActionUser | undefined): ActionItem[] {
  if (!user) return definitions.filter((d) => d.key === 'userGuides').map((d) => toItem(d, false));
  return definitions
    .filter((definition) => definition.isFor(user))
    .map((definition) => toItem(definition, !definition.alwaysEnabled && !user.iiqAvailable, user));
}

function toItem(definition: ActionDefinition, disabled: boolean, user?: ActionUser): ActionItem {
  const { key, label, description, target } = definition;
  return { key, label, description: (user && definition.describe?.(user)) ?? description, target, disabled };
}
