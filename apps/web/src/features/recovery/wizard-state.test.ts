import { describe, expect, it } from 'vitest';
import {
  initialState,
  startingState,
  STEP,
  stepPosition,
  wizardReducer,
  type WizardState,
} from './wizard-state';

const account = { username: 'jdoe', givenName: 'Jane', familyName: 'Doe', email: 'jane@x.example' };
const typed = { username: 'JDoe', email: 'Jane@x.example' };

describe('forgot password wizard', () => {
  it('starts at step 0 without a code or with a refused one, at step 1 with a valid one', () => {
    expect(startingState(undefined).step).toBe(STEP.identify);
    expect(startingState({ isAccountValid: true, isCodeValid: false, invalidReason: 'x' }).step).toBe(
      STEP.identify,
    );
    const link = startingState({ isAccountValid: true, isCodeValid: true, account });
    expect(link).toMatchObject({ step: STEP.link, account, viaLink: true });
  });

  it('a link for an account that must use a key leads to the key check: link → verify → password → done', () => {
    let state = startingState({
      isAccountValid: true,
      isCodeValid: true,
      account,
      keyRequired: true,
      hasSecurityKey: true,
    });
    expect(state).toMatchObject({ step: STEP.link, keyRequired: true, hasSecurityKey: true });
    expect(stepPosition(state)).toEqual({ index: 0, count: 4 });
    state = wizardReducer(state, { type: 'continueFromLink' });
    expect(state.step).toBe(STEP.verify);
    expect(wizardReducer(state, { type: 'back' }).step).toBe(STEP.link);
    state = wizardReducer(state, { type: 'verified' });
    expect(state.step).toBe(STEP.password);
    expect(wizardReducer(state, { type: 'back' }).step).toBe(STEP.verify);
  });

  it('goes identify → verify → password → done, and Back from the password to the verification', () => {
    let state = wizardReducer(initialState, {
      type: 'identified',
      result: {
        isAccountValid: true,
        isDeviceValid: true,
        device: { nickname: 'Phone', canPush: true },
        account,
      },
      typed,
    });
    expect(state).toMatchObject({ step: STEP.verify, device: { nickname: 'Phone', canPush: true } });
    state = wizardReducer(state, { type: 'verified' });
    expect(state.step).toBe(STEP.password);
    expect(wizardReducer(state, { type: 'back' }).step).toBe(STEP.verify);
    expect(wizardReducer(state, { type: 'passwordSet' }).step).toBe(STEP.done);
  });

  it('stays at step 0 for an invalid account; a device-less account has no device', () => {
    expect(
      wizardReducer(initialState, {
        type: 'identified',
        result: { isAccountValid: false, isDeviceValid: false },
        typed,
      }),
    ).toBe(initialState);
    const state = wizardReducer(initialState, {
      type: 'identified',
      result: { isAccountValid: true, isDeviceValid: false, account },
      typed,
    });
    expect(state.device).toBeUndefined();
    expect(wizardReducer(state, { type: 'emailSent' }).step).toBe(STEP.emailSent);
  });

  it('in link mode Back from the password goes to the link step', () => {
    const link = startingState({ isAccountValid: true, isCodeValid: true, account });
    const password = wizardReducer(link, { type: 'continueFromLink' });
    expect(password.step).toBe(STEP.password);
    expect(wizardReducer(password, { type: 'back' }).step).toBe(STEP.link);
  });

  it('Back from the verification to step 0 keeps what was typed there', () => {
    const verify = wizardReducer(initialState, {
      type: 'identified',
      result: { isAccountValid: true, isDeviceValid: false, account },
      typed,
    });
    const back = wizardReducer(verify, { type: 'back' });
    expect(back.step).toBe(STEP.identify);
    expect(back.typed).toEqual(typed);
  });

  it('counts only the steps of the path a person walks', () => {
    const at = (step: WizardState['step'], viaLink = false) => {
      const { index, count } = stepPosition({ step, viaLink });
      return `${index + 1} of ${count}`;
    };
    expect([STEP.identify, STEP.verify, STEP.password, STEP.done].map((s) => at(s))).toEqual([
      '1 of 4',
      '2 of 4',
      '3 of 4',
      '4 of 4',
    ]);
    expect(at(STEP.emailSent)).toBe('3 of 3');
    expect([STEP.link, STEP.password, STEP.done].map((s) => at(s, true))).toEqual([
      '1 of 3',
      '2 of 3',
      '3 of 3',
    ]);
  });
});
