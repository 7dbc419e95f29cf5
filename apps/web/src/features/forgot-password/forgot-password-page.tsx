// Minimal page: the route, its guard and heading are in place; the screen's body is built by a later issue.

/** Forgot Password (/forgot-password). */
export function ForgotPasswordPage() {
  return (
    <>
      <h1 className="page-title">Forgot Password</h1>
      <p>Reset your PRA Portal password after verifying your identity.</p>
    </>
  );
}
