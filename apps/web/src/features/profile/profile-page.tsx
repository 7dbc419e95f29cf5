// Minimal page: the route, its guard and heading are in place; the screen's body is built by a later issue.

/** Manage Profile (/vendor/profile). */
export function ProfilePage() {
  return (
    <>
      <h1 className="page-title">Manage Profile</h1>
      <p>Review your profile and change your password.</p>
    </>
  );
}
