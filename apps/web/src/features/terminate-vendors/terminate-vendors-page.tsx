// Minimal page: the route, its guard and heading are in place; the screen's body is built by a later issue.

/** Terminate Vendors (/brm/terminate-vendors). */
export function TerminateVendorsPage() {
  return (
    <>
      <h1 className="page-title">Terminate Vendors</h1>
      <p>
        Vendor access is removed from all of the user's BRM organizations, and accounts with no remaining
        access are terminated.
      </p>
    </>
  );
}
