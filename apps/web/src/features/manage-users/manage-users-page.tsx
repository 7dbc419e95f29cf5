import { useState } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import type { ManagedUser } from '@pra/contracts';
import { manageUsersMessages } from '@pra/contracts/manage-users';
import { isAdmin } from '../../lib/account-kinds';
import { useCurrentUser } from '../../lib/use-current-user';
import { ManageAccessModal } from '../../components/access/manage-access-modal';
import { DataTable } from '../../components/data-table/data-table';
import { useServerTable } from '../../components/data-table/use-server-table';
import { queryKeys } from '../../lib/query-keys';
import { fetchManagedUsersPage, useUserAction } from './use-managed-users';
import { isDisabledRow, userColumns } from './user-columns';
import { ReenableModal, UserDetailsModal } from './dormancy';
import { ResetSignInMethodsModal } from './reset-sign-in-methods';

/** Spec section 9: manage users page size. */
const USERS_PAGE_SIZE = 10;

/**
 * Manage Users (/brm/manage-users): the vendors of one's organizations (admin: all), acted on one
 * by one. Manage Access opens the shared Manage Access modal for the chosen user; the server limits
 * it to the manager's organizations.
 */
export function ManageUsersPage() {
  const { data: user } = useCurrentUser();
  const [accessFor, setAccessFor] = useState<ManagedUser | null>(null);
  const onManageAccess = setAccessFor;
  const action = useUserAction();
  const [detailsFor, setDetailsFor] = useState<ManagedUser | null>(null);
  const [reenable, setReenable] = useState<ManagedUser | null>(null);
  const [resetFor, setResetFor] = useState<ManagedUser | null>(null);
  // The server filters, sorts and pages (a BRM may manage tens of thousands of vendors).
  const users = useServerTable({
    queryKey: queryKeys.managedUsers,
    fetchPage: fetchManagedUsersPage,
    columns: userColumns({
      isBusy: action.isPending,
      onAction: (kind, target) =>
        kind === 'toggle' && target.disabledReason === 'inactive' && !target.active
          ? setReenable(target)
          : action.mutate({ action: kind, user: target }),
      onManageAccess,
      onDetails: setDetailsFor,
      onResetSignInMethods: setResetFor,
    }),
    pageSize: USERS_PAGE_SIZE,
    initialSort: { key: 'username', direction: 'asc' },
  });
  const table = users.table;

  return (
    <>
      <h1 className="page-title">Manage Users</h1>
      <p>Manage the vendor users within your organizations.</p>
      {users.isPending ? (
        <p role="status">
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          Loading users…
        </p>
      ) : (
        <div className="manage-users">
          <p aria-live="polite">{manageUsersMessages.managing(table.totalCount)}</p>
          <DataTable
            table={table}
            caption="Users"
            filterLabel="Filter by username, email or name"
            emptyText={manageUsersMessages.empty}
            getRowKey={(u) => u.username}
            rowClassName={(u) => (isDisabledRow(u) ? 'fst-italic' : undefined)}
          />
        </div>
      )}
      {detailsFor && <UserDetailsModal user={detailsFor} onClose={() => setDetailsFor(null)} />}
      {resetFor && <ResetSignInMethodsModal user={resetFor} onClose={() => setResetFor(null)} />}
      {reenable && (
        <ReenableModal
          user={reenable}
          onCancel={() => setReenable(null)}
          onConfirm={() => {
            action.mutate({ action: 'toggle', user: reenable });
            setReenable(null);
          }}
        />
      )}
      {accessFor && (
        <ManageAccessModal
          show
          username={accessFor.username}
          email={accessFor.email}
          canShowAll={user ? isAdmin(user) : false}
          onClose={() => setAccessFor(null)}
        />
      )}
    </>
  );
}
