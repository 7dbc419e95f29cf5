import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { AccountSummary } from '@pra/contracts';
import { AccountFields } from '../../components/account-fields/account-fields';
import { loginUrl, routes } from '@pra/contracts/paths';
import {
  AcceptableUsePolicyModal,
  AcceptableUsePolicyText,
  POLICY_TITLE,
} from '../../components/acceptable-use-policy/acceptable-use-policy';

/** Step 0: what is about to happen, and that it cannot be resumed later. */
export function IntroStep() {
  return (
    <>
      <p>
        Activating your account takes a few minutes. You will review the acceptable use policy, enter the
        activation code from your email, confirm your details and set your password.
      </p>
      <p className="alert alert-warning">
        Once started, the activation must be completed: it cannot be saved and resumed later.
      </p>
    </>
  );
}

/** Step 1: the policy and its accept checkbox. */
export function PolicyStep({
  isAccepted,
  onChange,
}: {
  isAccepted: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <>
      {/* Focusable so keyboard users can scroll the policy. */}
      <div className="policy-box" role="region" aria-label={POLICY_TITLE} tabIndex={0}>
        <AcceptableUsePolicyText />
      </div>
      <Form.Check
        id="activation-accept-policy"
        label={`I have read and accept the ${POLICY_TITLE}`}
        checked={isAccepted}
        onChange={(event) => onChange(event.target.checked)}
      />
    </>
  );
}

/** Step 3: the account the code belongs to, read-only. */
export function ConfirmStep({
  account,
  isPolicyAccepted,
}: {
  account: AccountSummary;
  isPolicyAccepted: boolean;
}) {
  const [isPolicyShown, setIsPolicyShown] = useState(false);
  return (
    <>
      <p>Please confirm that these are your details.</p>
      <AccountFields account={account} idPrefix="activation" />
      {!isPolicyAccepted && (
        // Arriving from the emailed link skips the policy step; the policy still applies.
        <p className="mt-3">
          By activating your account you agree to the{' '}
          <Button variant="link" className="p-0 align-baseline" onClick={() => setIsPolicyShown(true)}>
            {POLICY_TITLE}
          </Button>
          .
          <AcceptableUsePolicyModal show={isPolicyShown} onHide={() => setIsPolicyShown(false)} />
        </p>
      )}
    </>
  );
}

/** Step 5: done; log in, where multi-factor authentication is set up. */
export function SuccessStep({ account }: { account: AccountSummary | undefined }) {
  return (
    <>
      <p>Your account has been activated and your password is set.</p>
      {account && <AccountFields account={account} idPrefix="activation" />}
      <p className="mt-3">
        When you log in you will be prompted to configure multi-factor authentication for your account.
      </p>
      <a className="btn btn-primary" href={loginUrl(routes.welcome)}>
        Login
      </a>
    </>
  );
}
