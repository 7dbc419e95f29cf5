// Minimal page: the route, its guard and heading are in place; the screen's body is built by a later issue.

/** New User Registration (/new-user). */
export function NewUserPage() {
  return (
    <>
      <h1 className="page-title">New User Registration</h1>
      <p>Register a new vendor user of the PRA Portal. Requests are reviewed by the organization's BRM.</p>
    </>
  );
}
