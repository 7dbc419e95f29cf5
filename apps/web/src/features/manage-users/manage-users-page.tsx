// Minimal page: the route, its guard and heading are in place; the screen's body is built by a later issue.

/** Manage Users (/brm/manage-users). */
export function ManageUsersPage() {
  return (
    <>
      <h1 className="page-title">Manage Users</h1>
      <p>Manage the vendor users within your organizations.</p>
    </>
  );
}
