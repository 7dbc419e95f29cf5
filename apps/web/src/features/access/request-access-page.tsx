import { useCurrentUser } from '../../lib/use-current-user';
import { ManageAccess } from '../../components/access/manage-access';

/** Manage Access (/vendor/request-access): a vendor's own roles, requested from the organizations' BRMs. */
export function RequestAccessPage() {
  const { data: user } = useCurrentUser();
  return (
    <>
      <h1 className="page-title">Manage Access</h1>
      <p>Request additional access for PRA organizations, or remove access you no longer need.</p>
      {user && (
        <ManageAccess username={user.username} email={user.email} isManager={false} canShowAll={false} />
      )}
    </>
  );
}
