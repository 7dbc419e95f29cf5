import type { AccountSummary, DecodeResponse } from '@pra/contracts';

/** The six steps of the activation wizard (spec sections 2 and 4). */
export const STEP = { intro: 0, policy: 1, code: 2, confirm: 3, password: 4, done: 5 } as const;
export type Step = (typeof STEP)[keyof typeof STEP];
export const STEP_COUNT = 6;

export const stepTitles: Record<Step, string> = {
  0: "Let's activate your account",
  1: 'Acceptable Use Policy',
  2: 'Enter Activation Code',
  3: 'Confirm Your Details',
  4: 'Set Initial Password',
  5: 'Congratulations!',
};

/** The server's answer for one code, kept with the code it was for. */
export interface CodeCheck {
  code: string;
  result: DecodeResponse;
}

/** The code of the emailed link and the server's answer, `undefined` when the check failed. */
export interface LinkCodeCheck {
  code: string;
  result: DecodeResponse | undefined;
}

export interface WizardState {
  step: Step;
  isPolicyAccepted: boolean;
  /** What is in the Activation Code field. */
  code: string;
  /** The last server answer; it applies only while the field still holds that code. */
  check: CodeCheck | undefined;
}

export type WizardAction =
  | { type: 'next' }
  | { type: 'previous' }
  | { type: 'policyAccepted'; isAccepted: boolean }
  | { type: 'codeChanged'; code: string }
  | { type: 'codeChecked'; check: CodeCheck }
  /** The `?code=` of the link was decoded (or could not be: `check` undefined). */
  | { type: 'linkCodeChecked'; code: string; check: CodeCheck | undefined }
  | { type: 'activated' };

export const initialWizardState: WizardState = {
  step: STEP.intro,
  isPolicyAccepted: false,
  code: '',
  check: undefined,
};

/** Where the wizard starts: the intro, or for a code from the emailed link, where its check leads. */
export function startingState(link: LinkCodeCheck | undefined): WizardState {
  if (!link) return initialWizardState;
  const { code, result } = link;
  return wizardReducer(initialWizardState, {
    type: 'linkCodeChecked',
    code,
    check: result && { code, result },
  });
}

/** The check for the code now in the field, if there is one. */
export function currentCheck(state: WizardState): CodeCheck | undefined {
  return state.check?.code === state.code ? state.check : undefined;
}

/** The account of the accepted code, once the server has said the code is good. */
export function acceptedAccount(state: WizardState): AccountSummary | undefined {
  const check = currentCheck(state);
  return check?.result.isValid ? check.result.account : undefined;
}

/** Whether Next is enabled. Step 4 moves on by activating, step 5 is the end. */
export function canGoNext(state: WizardState): boolean {
  switch (state.step) {
    case STEP.intro:
      return true;
    case STEP.policy:
      return state.isPolicyAccepted;
    case STEP.code:
      return state.isPolicyAccepted && acceptedAccount(state) !== undefined;
    case STEP.confirm:
      return acceptedAccount(state) !== undefined;
    default:
      return false;
  }
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'next':
      return canGoNext(state) ? { ...state, step: (state.step + 1) as Step } : state;
    case 'previous':
      return state.step > STEP.intro && state.step < STEP.done
        ? { ...state, step: (state.step - 1) as Step }
        : state;
    case 'policyAccepted':
      return { ...state, isPolicyAccepted: action.isAccepted };
    case 'codeChanged':
      return { ...state, code: action.code };
    case 'codeChecked':
      return action.check.code === state.code ? { ...state, check: action.check } : state;
    case 'linkCodeChecked': {
      // A good code from the emailed link goes straight to the details; otherwise the code step
      // shows it with the server's feedback.
      const next = { ...state, code: action.code, check: action.check };
      return { ...next, step: acceptedAccount(next) ? STEP.confirm : STEP.code };
    }
    case 'activated':
      return state.step === STEP.password ? { ...state, step: STEP.done } : state;
  }
}
