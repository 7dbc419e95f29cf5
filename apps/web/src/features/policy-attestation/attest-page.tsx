import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { aupMessages } from '@pra/contracts/policy-attestation';
import { routes } from '@pra/contracts/paths';
import { acceptAup } from '@pra/contracts/endpoints/policy-attestation';
import { ApiError, callEndpoint } from '../../api/client';
import { PolicyMarkdown } from '../../components/acceptable-use-policy/policy-markdown';
import { myAupKey, useMyAup } from '../../components/acceptable-use-policy/use-my-aup';
import { showAlert } from '../../lib/alerts';
import { queryKeys } from '../../lib/query-keys';
import { useNavigate } from '../../lib/routing/router';
import { signOut } from '../../lib/sign-out';
import '../../components/acceptable-use-policy/acceptable-use-policy.css';

/**
 * Acceptable Use Policy (/attest, GOVERNANCE.md §8.2): the newest version in a focusable scroll
 * region, the agree checkbox, "Accept and Continue" (enabled once ticked) and "Log Out". Accepting
 * records the acceptance and goes on to Welcome.
 */
export function AttestPage() {
  const id = useId();
  const { data } = useMyAup(true);
  const client = useQueryClient();
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  if (!data) return null;
  const { policy } = data;
  async function accept() {
    setBusy(true);
    try {
      await callEndpoint(acceptAup, { body: { version: policy.version } });
      showAlert(aupMessages.accepted, 'success');
      await client.invalidateQueries({ queryKey: queryKeys.currentUser });
      await client.invalidateQueries({ queryKey: myAupKey });
      navigate(routes.welcome, { replace: true });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      await client.invalidateQueries({ queryKey: myAupKey });
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby={`${id}-heading`} className="attest-page">
      <h1 id={`${id}-heading`} className="page-title">
        {aupMessages.heading}
      </h1>
      <p className="text-body-secondary">{aupMessages.versionLine(policy.version, policy.effectiveOn)}</p>
      {/* Focusable and named: keyboard users scroll it too (as the registration dialog's body). */}
      <div className="policy-box" tabIndex={0} role="region" aria-label={`${aupMessages.heading} text`}>
        <PolicyMarkdown text={policy.bodyMd} />
      </div>
      {error && (
        <p className="text-danger" role="alert">
          {error}
        </p>
      )}
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          if (agreed && !busy) void accept();
        }}
      >
        <Form.Check
          id={`${id}-agree`}
          type="checkbox"
          label={aupMessages.agree}
          checked={agreed}
          onChange={(event) => setAgreed(event.target.checked)}
          className="mb-3"
        />
        <div className="d-flex flex-wrap gap-3 align-items-center">
          <Button type="submit" disabled={!agreed || busy}>
            {aupMessages.accept}
          </Button>
          <a
            href={routes.home}
            onClick={(event) => {
              event.preventDefault();
              void signOut();
            }}
          >
            {aupMessages.logOut}
          </a>
        </div>
      </Form>
    </section>
  );
}
