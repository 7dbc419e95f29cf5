// Minimal page: the route, its guard and heading are in place; the screen's body is built by a later issue.

/** Account Activation (/activate-account). */
export function ActivateAccountPage() {
  return (
    <>
      <h1 className="page-title">Account Activation</h1>
      <p>Activate your PRA Portal account with the activation code you received by email.</p>
    </>
  );
}
