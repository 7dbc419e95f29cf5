import { useReducer, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from '../../lib/routing/router';
import { routes } from '@pra/contracts/paths';
import { emptyPasswordPair, type PasswordPair } from '../../components/password-field/evaluate-password';
import { WizardHeading } from '../../components/wizard/wizard-heading';
import { CodeStep } from './code-step';
import { PasswordStep } from './password-step';
import { ConfirmStep, IntroStep, PolicyStep, SuccessStep } from './simple-steps';
import { useActivate, useDecodeCode } from './use-activation';
import { useLinkCode } from './use-link-code';
import {
  acceptedAccount,
  canGoNext,
  currentCheck,
  startingState,
  STEP,
  STEP_COUNT,
  stepTitles,
  wizardReducer,
  type LinkCodeCheck,
} from './wizard-state';

/** Account Activation (/activate-account): the six-step wizard, optionally started from an emailed link. */
export function ActivateAccountPage() {
  const link = useLinkCode();
  // Nothing shows until the link's code is checked: the wizard starts where that answer leads.
  if (link.isPending) return null;
  return <ActivationWizard link={link.check} />;
}

function ActivationWizard({ link }: { link: LinkCodeCheck | undefined }) {
  const [state, dispatch] = useReducer(wizardReducer, link, startingState);
  const [password, setPassword] = useState<PasswordPair>(emptyPasswordPair);
  const [isPasswordValid, setIsPasswordValid] = useState(false);
  const account = acceptedAccount(state);

  const decode = useDecodeCode((code, result) => dispatch({ type: 'codeChecked', check: { code, result } }));
  const activate = useActivate(() => dispatch({ type: 'activated' }));

  const next = () => dispatch({ type: 'next' });
  const previous = () => dispatch({ type: 'previous' });

  return (
    <>
      <WizardHeading
        title="Account Activation"
        step={state.step}
        stepCount={STEP_COUNT}
        stepTitle={stepTitles[state.step]}
      />
      <div className="row">
        <div className="col-lg-9 col-xl-8">
          {state.step === STEP.intro && <IntroStep />}
          {state.step === STEP.policy && (
            <PolicyStep
              isAccepted={state.isPolicyAccepted}
              onChange={(isAccepted) => dispatch({ type: 'policyAccepted', isAccepted })}
            />
          )}
          {state.step === STEP.code && (
            <CodeStep
              code={state.code}
              check={currentCheck(state)}
              isChecking={decode.isPending}
              isPolicyAccepted={state.isPolicyAccepted}
              onCodeChange={(code) => dispatch({ type: 'codeChanged', code })}
              onVerify={(code) => decode.mutate(code)}
            />
          )}
          {state.step === STEP.confirm && account && (
            <ConfirmStep account={account} isPolicyAccepted={state.isPolicyAccepted} />
          )}
          {state.step === STEP.password && account && (
            <PasswordStep
              username={account.username}
              value={password}
              onChange={setPassword}
              onValidityChange={setIsPasswordValid}
            />
          )}
          {state.step === STEP.done && <SuccessStep account={account} />}

          {state.step !== STEP.done && (
            <div className="d-flex gap-2 mt-4">
              {state.step === STEP.intro ? (
                <Link className="btn btn-secondary" to={routes.home}>
                  Cancel
                </Link>
              ) : (
                <Button variant="secondary" onClick={previous}>
                  Previous
                </Button>
              )}
              {state.step === STEP.password ? (
                <Button
                  disabled={!isPasswordValid || activate.isPending || !account}
                  onClick={() =>
                    account &&
                    activate.mutate({ claimCode: state.code.trim(), newPassword: password.newPassword })
                  }
                >
                  Activate Account
                </Button>
              ) : (
                <Button onClick={next} disabled={!canGoNext(state)}>
                  Next
                </Button>
              )}
            </div>
          )}
        </div>
      </div>
    </>
  );
}
