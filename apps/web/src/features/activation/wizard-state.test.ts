import { describe, expect, it } from 'vitest';
import type { AccountSummary } from '@pra/contracts';
import {
  acceptedAccount,
  canGoNext,
  initialWizardState,
  startingState,
  STEP,
  wizardReducer,
  type WizardAction,
  type WizardState,
} from './wizard-state';

const account: AccountSummary = {
  username: 'jdoe',
  givenName: 'Jane',
  familyName: 'Doe',
  email: 'jane@acme.example',
};
const good = { code: 'ABCD-EFGH', result: { isValid: true, account } };
const bad = { code: 'NOPE', result: { isValid: false, invalidReason: 'This activation code has expired.' } };

const run = (actions: WizardAction[], from: WizardState = initialWizardState) =>
  actions.reduce(wizardReducer, from);

describe('activation wizard steps', () => {
  it('starts at the intro and needs the policy accepted to leave step 1', () => {
    const atPolicy = run([{ type: 'next' }]);
    expect(atPolicy.step).toBe(STEP.policy);
    expect(canGoNext(atPolicy)).toBe(false);
    expect(run([{ type: 'next' }], atPolicy).step).toBe(STEP.policy);
    const accepted = run([{ type: 'policyAccepted', isAccepted: true }, { type: 'next' }], atPolicy);
    expect(accepted.step).toBe(STEP.code);
  });

  it('needs the policy and a code the server accepted to leave step 2', () => {
    const atCode = run([{ type: 'next' }, { type: 'policyAccepted', isAccepted: true }, { type: 'next' }]);
    expect(canGoNext(atCode)).toBe(false);
    const withBad = run(
      [
        { type: 'codeChanged', code: 'NOPE' },
        { type: 'codeChecked', check: bad },
      ],
      atCode,
    );
    expect(canGoNext(withBad)).toBe(false);
    const withGood = run(
      [
        { type: 'codeChanged', code: 'ABCD-EFGH' },
        { type: 'codeChecked', check: good },
      ],
      atCode,
    );
    expect(canGoNext(withGood)).toBe(true);
    expect(acceptedAccount(withGood)).toEqual(account);
    // Un-accepting the policy closes the way again.
    expect(canGoNext(run([{ type: 'policyAccepted', isAccepted: false }], withGood))).toBe(false);
  });

  it('forgets an accepted code as soon as the field changes, and ignores answers for older text', () => {
    const checked = run([
      { type: 'codeChanged', code: 'ABCD-EFGH' },
      { type: 'codeChecked', check: good },
    ]);
    const edited = run([{ type: 'codeChanged', code: 'ABCD-EFG' }], checked);
    expect(acceptedAccount(edited)).toBeUndefined();
    const late = run([{ type: 'codeChecked', check: good }], run([{ type: 'codeChanged', code: 'OTHER' }]));
    expect(late.check).toBeUndefined();
  });

  it('starts at step 3 for a valid code from the link, step 2 (with the feedback) otherwise', () => {
    const valid = run([{ type: 'linkCodeChecked', code: good.code, check: good }]);
    expect(valid).toMatchObject({ step: STEP.confirm, code: good.code });
    expect(canGoNext(valid)).toBe(true);
    const invalid = run([{ type: 'linkCodeChecked', code: bad.code, check: bad }]);
    expect(invalid).toMatchObject({ step: STEP.code, code: 'NOPE', check: bad });
    const failed = run([{ type: 'linkCodeChecked', code: 'X', check: undefined }]);
    expect(failed).toMatchObject({ step: STEP.code, code: 'X', check: undefined });
  });

  it('starts where the link leads: intro without a code, else as for a checked link code', () => {
    expect(startingState(undefined)).toBe(initialWizardState);
    expect(startingState({ code: good.code, result: good.result })).toMatchObject({
      step: STEP.confirm,
      check: good,
    });
    expect(startingState({ code: 'X', result: undefined })).toMatchObject({ step: STEP.code, code: 'X' });
  });

  it('goes back one step with Previous, never before the intro nor out of the end', () => {
    const valid = run([{ type: 'linkCodeChecked', code: good.code, check: good }]);
    expect(run([{ type: 'previous' }], valid).step).toBe(STEP.code);
    expect(run([{ type: 'previous' }]).step).toBe(STEP.intro);
    const done = run([{ type: 'next' }, { type: 'activated' }], valid);
    expect(done.step).toBe(STEP.done);
    expect(run([{ type: 'previous' }], done).step).toBe(STEP.done);
  });

  it('moves from the password step only by activating', () => {
    const atPassword = run([{ type: 'linkCodeChecked', code: good.code, check: good }, { type: 'next' }]);
    expect(atPassword.step).toBe(STEP.password);
    expect(canGoNext(atPassword)).toBe(false);
    expect(run([{ type: 'next' }], atPassword).step).toBe(STEP.password);
    expect(run([{ type: 'activated' }], atPassword).step).toBe(STEP.done);
    expect(run([{ type: 'activated' }]).step).toBe(STEP.intro);
  });
});
