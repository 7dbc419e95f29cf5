// Minimal page: the route, its guard and heading are in place; the screen's body is built by a later issue.

/** Forgot User ID (/forgot-user-id). */
export function ForgotUserIdPage() {
  return (
    <>
      <h1 className="page-title">Forgot User ID</h1>
      <p>Find your PRA Portal user ID with your first name, last name and email address.</p>
    </>
  );
}
