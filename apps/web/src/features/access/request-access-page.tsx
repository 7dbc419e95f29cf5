import { useSearchParams } from '../../lib/routing/router';
import { useCurrentUser } from '../../lib/use-current-user';
import { ManageAccess } from '../../components/access/manage-access';

/** Manage Access (/vendor/request-access): a vendor's own roles, requested from the organizations' BRMs. */
export function RequestAccessPage() {
  const { data: user } = useCurrentUser();
  // The welcome alert links here with ?extend={role name} to open that role's extension dialog.
  const [search] = useSearchParams();
  return (
    <>
      <h1 className="page-title">Manage Access</h1>
      <p>Request additional access for PRA organizations, or remove access you no longer need.</p>
      {user && (
        <ManageAccess
          username={user.username}
          email={user.email}
          isManager={false}
          canShowAll={false}
          extendRole={search.get('extend') ?? undefined}
        />
      )}
    </>
  );
}
