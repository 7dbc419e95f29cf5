import type { AccountSummary, IdentifyBody, IdentifyByCodeResponse, IdentifyResponse } from '@pra/contracts';

/** The six steps of the Forgot Password wizard (spec sections 2 and 4); a person sees three or four. */
export const STEP = { identify: 0, link: 1, verify: 2, password: 3, done: 4, emailSent: 5 } as const;
export type Step = (typeof STEP)[keyof typeof STEP];

export const stepTitles: Record<Step, string> = {
  0: 'Identify Yourself',
  1: 'Password Reset Link',
  2: 'Select a verification method',
  3: 'Set New Password',
  4: 'Congratulations!',
  5: 'Password Reset Email Sent',
};

export interface WizardState {
  step: Step;
  account: AccountSummary | undefined;
  /** The account's MFA device (identify), if it has one; `canPush` when a paired phone takes pushes. */
  device: { nickname: string; canPush: boolean } | undefined;
  /** The account has a security key or passkey (identify): "Verify with Security Key" is offered. */
  hasSecurityKey: boolean;
  /** The account must use a key (GOVERNANCE.md §7.3): passcode and push are hidden, the link leads to the key check. */
  keyRequired: boolean;
  /** What was typed at step 0: Back to it shows it again. */
  typed: IdentifyBody;
  /** Arrived with a valid reset code: Set New Password's Back goes to step 1. */
  viaLink: boolean;
}

export type WizardAction =
  | { type: 'identified'; result: IdentifyResponse; typed: IdentifyBody }
  | { type: 'verified' }
  | { type: 'continueFromLink' }
  | { type: 'back' }
  | { type: 'passwordSet' }
  | { type: 'emailSent' };

export const initialState: WizardState = {
  step: STEP.identify,
  account: undefined,
  device: undefined,
  hasSecurityKey: false,
  keyRequired: false,
  typed: { username: '', email: '' },
  viaLink: false,
};

/** Where the wizard starts: step 0, or step 1 (link mode) for a code that validated. */
export function startingState(link: IdentifyByCodeResponse | undefined): WizardState {
  if (link?.isAccountValid && link.isCodeValid && link.account) {
    return {
      ...initialState,
      step: STEP.link,
      account: link.account,
      viaLink: true,
      keyRequired: link.keyRequired === true,
      hasSecurityKey: link.hasSecurityKey === true,
    };
  }
  return initialState;
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'identified': {
      const { result } = action;
      if (!result.isAccountValid || !result.account) return state;
      return {
        step: STEP.verify,
        account: result.account,
        device: result.isDeviceValid ? (result.device ?? { nickname: '', canPush: false }) : undefined,
        hasSecurityKey: result.hasSecurityKey === true,
        keyRequired: result.keyRequired === true,
        typed: action.typed,
        viaLink: false,
      };
    }
    case 'verified':
      return state.step === STEP.verify ? { ...state, step: STEP.password } : state;
    case 'continueFromLink':
      return state.step === STEP.link
        ? { ...state, step: state.keyRequired ? STEP.verify : STEP.password }
        : state;
    case 'back':
      if (state.step === STEP.password)
        return { ...state, step: state.viaLink && !state.keyRequired ? STEP.link : STEP.verify };
      if (state.step === STEP.verify) return { ...state, step: state.viaLink ? STEP.link : STEP.identify };
      return state;
    case 'passwordSet':
      return state.step === STEP.password ? { ...state, step: STEP.done } : state;
    case 'emailSent':
      return state.step === STEP.verify ? { ...state, step: STEP.emailSent } : state;
  }
}

/**
 * 'Step n of N' as a person walks it: only the steps of their own path count (by link: link,
 * password, done, with the key check after the link for an account that must use a key; by email: identify, verify, email sent; else identify, verify, password, done).
 */
export function stepPosition(state: Pick<WizardState, 'step' | 'viaLink'> & { keyRequired?: boolean }): {
  index: number;
  count: number;
} {
  const path: readonly Step[] = state.viaLink
    ? state.keyRequired
      ? [STEP.link, STEP.verify, STEP.password, STEP.done]
      : [STEP.link, STEP.password, STEP.done]
    : state.step === STEP.emailSent
      ? [STEP.identify, STEP.verify, STEP.emailSent]
      : [STEP.identify, STEP.verify, STEP.password, STEP.done];
  return { index: Math.max(0, path.indexOf(state.step)), count: path.length };
}
