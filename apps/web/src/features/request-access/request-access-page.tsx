// Minimal page: the route, its guard and heading are in place; the screen's body is built by a later issue.

/** Manage Access (/vendor/request-access). */
export function RequestAccessPage() {
  return (
    <>
      <h1 className="page-title">Manage Access</h1>
      <p>Request additional access for PRA organizations, or remove access you no longer need.</p>
    </>
  );
}
