import { useMutation } from '@tanstack/react-query';
import { useCallback, useReducer, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { IdentifyByCodeResponse, SetPasswordBody } from '@pra/contracts';
import { recoveryMessages } from '@pra/contracts/recovery';
import * as calls from '@pra/contracts/endpoints/recovery';
import { callEndpoint } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { useLeaveGuard } from '../../lib/routing/router';
import { emptyPasswordPair, type PasswordPair } from '../../components/password-field/evaluate-password';
import { WizardHeading } from '../../components/wizard/wizard-heading';
import { PasswordField } from '../../components/password-field/password-field';
import { IdentifyStep } from './identify-step';
import { DoneStep, EmailSentStep, LinkStep } from './simple-steps';
import { useLinkCode } from './use-link-code';
import { VerifyStep } from './verify-step';
import { startingState, STEP, stepPosition, stepTitles, wizardReducer } from './wizard-state';

/** Forgot Password (/forgot-password): the six-step wizard, optionally started from an emailed link. */
export function ForgotPasswordPage() {
  const link = useLinkCode();
  // Nothing renders until the link's code is checked: the wizard starts where that answer leads.
  if (link.isPending) return null;
  return <ForgotPasswordWizard link={link.result} linkProblem={link.problem} />;
}

interface WizardProps {
  link: IdentifyByCodeResponse | undefined;
  /** Why the emailed link cannot be used: said on step 0, not only in a passing toast. */
  linkProblem: string | undefined;
}

function ForgotPasswordWizard({ link, linkProblem }: WizardProps) {
  const [state, dispatch] = useReducer(wizardReducer, link, startingState);
  const position = stepPosition(state);
  const [password, setPassword] = useState<PasswordPair>(emptyPasswordPair);
  const [isPasswordValid, setIsPasswordValid] = useState(false);
  const { account } = state;
  // Between identifying and the password set (or the email sent), leaving asks first.
  useLeaveGuard(state.step === STEP.verify || state.step === STEP.password);

  const setPasswordCall = useMutation({
    mutationFn: (body: SetPasswordBody) => withLoading(() => callEndpoint(calls.setNewPassword, { body })),
    onSuccess: (result) => {
      if (!result.success) {
        showAlert(recoveryMessages.changeUnexpected, 'danger');
        return;
      }
      showAlert(recoveryMessages.passwordChanged, 'success');
      dispatch({ type: 'passwordSet' });
    },
    onError: (error) => showAlert(failureMessage(error, recoveryMessages.changeUnexpected), 'danger'),
  });

  const onVerified = useCallback(() => dispatch({ type: 'verified' }), []);
  const back = () => dispatch({ type: 'back' });

  return (
    <>
      <WizardHeading
        title="Forgot Password"
        step={position.index}
        stepCount={position.count}
        stepTitle={stepTitles[state.step]}
      />
      <div className="row">
        <div className="col-lg-9 col-xl-8">
          {state.step === STEP.identify && linkProblem && (
            <Alert variant="warning">
              <p className="mb-1">{linkProblem}</p>
              <p className="mb-0">
                Enter your username and email below to verify yourself again or to get a new link.
              </p>
            </Alert>
          )}
          {state.step === STEP.identify && (
            <IdentifyStep
              typed={state.typed}
              onIdentified={(result, typed) => dispatch({ type: 'identified', result, typed })}
            />
          )}
          {state.step === STEP.link && account && (
            <LinkStep account={account} onNext={() => dispatch({ type: 'continueFromLink' })} />
          )}
          {state.step === STEP.verify && account && (
            <VerifyStep
              account={account}
              device={state.device}
              hasSecurityKey={state.hasSecurityKey}
              keyRequired={state.keyRequired}
              viaLink={state.viaLink}
              onVerified={onVerified}
              onEmailSent={() => dispatch({ type: 'emailSent' })}
              onBack={back}
            />
          )}
          {state.step === STEP.password && account && (
            <>
              <p>
                Choose the new password for <strong>{account.username}</strong>.
              </p>
              <PasswordField
                username={account.username}
                value={password}
                onChange={setPassword}
                onValidityChange={setIsPasswordValid}
              />
              <div className="d-flex gap-2 mt-4">
                <Button variant="secondary" onClick={back}>
                  Back
                </Button>
                <Button
                  disabled={!isPasswordValid || setPasswordCall.isPending}
                  onClick={() =>
                    setPasswordCall.mutate({ username: account.username, newPassword: password.newPassword })
                  }
                >
                  Set Password
                </Button>
              </div>
            </>
          )}
          {state.step === STEP.done && <DoneStep account={account} />}
          {state.step === STEP.emailSent && <EmailSentStep account={account} />}
        </div>
      </div>
    </>
  );
}
