import { describe, expect, it } from 'vitest';
import { initialState, startingState, STEP, wizardReducer } from './wizard-state';

const account = { username: 'jdoe', givenName: 'Jane', familyName: 'Doe', email: 'jane@x.example' };

describe('forgot password wizard', () => {
  it('starts at step 0 without a code or with a refused one, at step 1 with a valid one', () => {
    expect(startingState(undefined).step).toBe(STEP.identify);
    expect(startingState({ isAccountValid: true, isCodeValid: false, invalidReason: 'x' }).step).toBe(
      STEP.identify,
    );
    const link = startingState({ isAccountValid: true, isCodeValid: true, account });
    expect(link).toMatchObject({ step: STEP.link, account, viaLink: true });
  });

  it('goes identify → verify → password → done, and Back from the password to the verification', () => {
    let state = wizardReducer(initialState, {
      type: 'identified',
      result: { isAccountValid: true, isDeviceValid: true, device: { nickname: 'Phone' }, account },
    });
    expect(state).toMatchObject({ step: STEP.verify, device: { nickname: 'Phone' } });
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
      }),
    ).toBe(initialState);
    const state = wizardReducer(initialState, {
      type: 'identified',
      result: { isAccountValid: true, isDeviceValid: false, account },
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
});
