// Minimal page: the route, its guard and heading are in place; the screen's body is built by a later issue.

/** Approvals and Provisioning (/brm/pending-approvals). */
export function PendingApprovalsPage() {
  return (
    <>
      <h1 className="page-title">Approvals and Provisioning</h1>
      <p>Approve or deny new user and access requests for your organizations.</p>
    </>
  );
}
