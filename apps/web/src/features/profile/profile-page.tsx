import { useCallback, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import type { CurrentUser } from '@pra/contracts';
import { textFieldMessages } from '@pra/contracts/plain-texts';
import { useCurrentUser } from '../../lib/use-current-user';
import { AuthenticatorPairing } from '../../components/authenticator-pairing/authenticator-pairing';
import { PasswordField } from '../../components/password-field/password-field';
import { emptyPasswordPair, type PasswordPair } from '../../components/password-field/evaluate-password';
import { useChangePassword } from './use-change-password';
import { SponsorsCard } from './sponsors-card';
import { AupCard } from './aup-card';
import { SecurityKeysCard } from './security-keys-card';

/** Manage Profile (/vendor/profile): the vendor's name and job title, and the change-password form. */
export function ProfilePage() {
  const { data: user } = useCurrentUser();
  return (
    <>
      <h1 className="page-title">Manage Profile</h1>
      <p>Review your profile and change your password.</p>
      {user && (
        <Row className="g-4">
          <Col lg={5}>
            <ProfileDetails user={user} />
            <div className="mt-4">
              <AupCard />
            </div>
            <div className="mt-4">
              <SponsorsCard />
            </div>
          </Col>
          <Col lg={7}>
            <ChangePasswordForm username={user.username} />
          </Col>
          <Col lg={12}>
            <SecurityKeysCard username={user.username} />
          </Col>
          <Col lg={12}>
            <AuthenticatorPairing />
          </Col>
        </Row>
      )}
    </>
  );
}

function ProfileDetails({ user }: { user: CurrentUser }) {
  return (
    <Card>
      <Card.Body>
        <Card.Title as="h2" className="h5">
          Profile
        </Card.Title>
        <dl className="mb-0">
          <dt>First Name</dt>
          <dd>{user.givenName || '—'}</dd>
          <dt>Last Name</dt>
          <dd>{user.familyName || '—'}</dd>
          <dt>Job Title</dt>
          <dd className="mb-0">{user.jobTitle || '—'}</dd>
        </dl>
      </Card.Body>
    </Card>
  );
}

function ChangePasswordForm({ username }: { username: string }) {
  const id = useId();
  const [current, setCurrent] = useState('');
  const [isCurrentTouched, setIsCurrentTouched] = useState(false);
  const [pair, setPair] = useState<PasswordPair>(emptyPasswordPair);
  const [isPairValid, setIsPairValid] = useState(false);
  // Remounting the password component clears its own touched state after a change.
  const [formKey, setFormKey] = useState(0);
  const handleValidity = useCallback((isValid: boolean) => setIsPairValid(isValid), []);
  const change = useChangePassword(username, () => {
    setCurrent('');
    setIsCurrentTouched(false);
    setPair(emptyPasswordPair);
    setFormKey((key) => key + 1);
  });
  const currentMissing = current.length === 0;
  const showCurrentError = currentMissing && isCurrentTouched;
  const canSubmit = !currentMissing && isPairValid && !change.isPending;

  return (
    <Card>
      <Card.Body>
        <Card.Title as="h2" className="h5" id={`${id}-title`}>
          Change Password
        </Card.Title>
        <Form
          noValidate
          aria-labelledby={`${id}-title`}
          onSubmit={(event) => {
            event.preventDefault();
            setIsCurrentTouched(true);
            if (canSubmit) change.mutate({ currentPassword: current, newPassword: pair.newPassword });
          }}
        >
          <Form.Group className="mb-3" controlId={`${id}-current`}>
            <Form.Label>Current Password</Form.Label>
            <Form.Control
              type="password"
              autoComplete="current-password"
              value={current}
              required
              isInvalid={showCurrentError}
              aria-invalid={showCurrentError || undefined}
              aria-describedby={showCurrentError ? `${id}-current-error` : undefined}
              onChange={(event) => setCurrent(event.target.value)}
              onBlur={() => setIsCurrentTouched(true)}
            />
            <Form.Control.Feedback type="invalid" id={`${id}-current-error`}>
              {textFieldMessages.required}
            </Form.Control.Feedback>
          </Form.Group>
          <PasswordField
            key={formKey}
            username={username}
            value={pair}
            onChange={setPair}
            onValidityChange={handleValidity}
            disabled={change.isPending}
          />
          <div className="d-flex justify-content-end mt-3">
            <Button type="submit" disabled={!canSubmit}>
              Submit
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
