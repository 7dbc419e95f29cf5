import './manage-users.compiled.css';
import Dropdown from 'react-bootstrap/Dropdown';
import type { ManagedUser } from '@pra/contracts';
import type { DataColumn } from '../../components/data-table/use-data-table';
import type { UserAction } from './use-managed-users';
import { reasonText } from './dormancy';
import { askInfosecHref } from './reset-sign-in-methods';

/**
 * The Status column: the spec's Enabled or Disabled, and 'Pending activation' for an account not
 * yet activated (it is not a disabled account, and is not drawn as one).
 */
export function statusText(user: ManagedUser): string {
  if (user.status === 'pendingActivation') return 'Pending activation';
  return user.active ? 'Enabled' : 'Disabled';
}

/** Disabled rows are in italic (spec); a pending account is not disabled. */
export function isDisabledRow(user: ManagedUser): boolean {
  return !user.active && user.status !== 'pendingActivation';
}

interface ActionHandlers {
  isBusy: boolean;
  onAction: (action: UserAction, user: ManagedUser) => void;
  /** Opens Manage Access for the user (the modal of the Manage Access feature). */
  onManageAccess: (user: ManagedUser) => void;
  /** Opens View Details (last sign-in, why disabled). */
  onDetails?: (user: ManagedUser) => void;
  /** Opens Reset Sign-in Methods (admins; a BRM gets the "Ask InfoSec to reset" mail draft). */
  onResetSignInMethods?: (user: ManagedUser) => void;
}

/**
 * The Actions dropdown of one row; items that do not apply to the account, or that the server's
 * rights on it (`canManage`, `canResetActivationCode`) do not allow, are disabled or left out.
 */
function UserActions({ user, handlers }: { user: ManagedUser; handlers: ActionHandlers }) {
  const { onAction, onManageAccess } = handlers;
  const isBusy = handlers.isBusy || !user.canManage;
  const isPending = user.status === 'pendingActivation';
  return (
    <Dropdown>
      <Dropdown.Toggle variant="outline-secondary" size="sm" aria-label={`Actions for ${user.username}`}>
        Actions
      </Dropdown.Toggle>
      {/* Fixed positioning: the menu is not cut off by the table's sideways scroll box. */}
      <Dropdown.Menu popperConfig={{ strategy: 'fixed' }}>
        <Dropdown.Item as="button" disabled={isBusy || isPending} onClick={() => onAction('toggle', user)}>
          {user.active || isPending ? 'Disable User' : 'Enable User'}
        </Dropdown.Item>
        <Dropdown.Item
          as="button"
          disabled={isBusy || !user.active}
          onClick={() => onAction('sendOtp', user)}
        >
          Send One-Time Password E-mail
        </Dropdown.Item>
        <Dropdown.Item as="button" disabled={isBusy} onClick={() => onManageAccess(user)}>
          Manage Access
        </Dropdown.Item>
        {handlers.onDetails && (
          <Dropdown.Item as="button" onClick={() => handlers.onDetails?.(user)}>
            View Details
          </Dropdown.Item>
        )}
        {user.canResetActivationCode && (
          <Dropdown.Item
            as="button"
            disabled={isBusy || !isPending}
            onClick={() => onAction('resetActivation', user)}
          >
            Reset Account Activation Code
          </Dropdown.Item>
        )}
        {handlers.onResetSignInMethods &&
          (user.canResetActivationCode ? (
            <Dropdown.Item
              as="button"
              disabled={isBusy || user.status !== 'active'}
              onClick={() => handlers.onResetSignInMethods?.(user)}
            >
              Reset Sign-in Methods
            </Dropdown.Item>
          ) : (
            user.canManage && (
              <Dropdown.Item href={askInfosecHref(user)} disabled={user.status !== 'active'}>
                Ask InfoSec to reset
              </Dropdown.Item>
            )
          ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}

/** The Manage Users table's columns (spec: Actions, Username, First Name, Last Name, Email, Status). */
export function userColumns(handlers: ActionHandlers): DataColumn<ManagedUser>[] {
  return [
    {
      key: 'actions',
      header: 'Actions',
      pinned: 'start',
      render: (u) => <UserActions user={u} handlers={handlers} />,
    },
    { key: 'username', header: 'Username', sortValue: (u) => u.username, render: (u) => u.username },
    { key: 'givenName', header: 'First Name', sortValue: (u) => u.givenName, render: (u) => u.givenName },
    { key: 'familyName', header: 'Last Name', sortValue: (u) => u.familyName, render: (u) => u.familyName },
    { key: 'email', header: 'Email', sortValue: (u) => u.email, render: (u) => u.email },
    {
      key: 'status',
      header: 'Status',
      sortValue: statusText,
      // The reason of a disable is the cell's tooltip (GOVERNANCE.md §6.2); View Details shows it too.
      render: (u) => (
        <>
          <span title={reasonText(u)}>{statusText(u)}</span>
          {u.signInDueBy && (
            <span className="badge text-bg-warning ms-2">Sign-in due by {u.signInDueBy}</span>
          )}
        </>
      ),
    },
  ];
}
