// Texts the screens show and the API answers, without the schema library: a page that shows them
// before anything is sent (Manage Profile) does not load zod for them. Their modules
// (text-fields, profile, recovery, authenticator, policy-attestation) re-export them.

export const textFieldMessages = {
  required: 'Required',
  tooLong: (max: number) => `Max ${max} characters`,
  invalidCharacters: 'Line breaks, tabs and invisible formatting characters are not allowed',
  formula: 'Must not start with =, +, - or @',
} as const;

/** The headers GET /api/user/auth reads. */
export const reauthenticateHeaders = { username: 'username', password: 'password' } as const;

export const profileMessages = {
  incorrect: 'Current password is incorrect',
  changed: 'Successfully changed password',
  unexpected: 'Unexpected error while changing password',
  /** Change-password without a fresh confirmation of the current password. */
  reauthenticationRequired: 'Confirm your current password before changing it.',
  /** GET /api/user/auth for a username other than the signed-in one. */
  otherAccount: 'You can only confirm the password of your own account.',
  /** Too many wrong current passwords: the sign-in lockout applies. */
  /** The server adds when to try again. */
  locked: 'Too many failed sign-in attempts.',
  missingHeaders: 'The username and password headers are required.',
  currentRequired: 'Current password is required',
} as const;

/** The recovery section of the spec's error catalogue, and the server's reasons. */
export const recoveryMessages = {
  pushUnexpected: 'Unexpected error occurred performing PingID push verification',
  passcodeUnexpected: 'Unexpected error occurred while processing passcode',
  pushTimeout: 'PingID timed-out waiting for verification',
  pushDeclined: 'PingID app verification was declined',
  tooManyAttempts: 'PingID verification failed due to too many attempts',
  badPasscode: 'PingID code is not valid',
  invalidResetCode: (reason: string) => `Invalid reset code. ${reason}.`,
  resetCodeError: 'Error occurred while validating reset code.',
  identifyUnexpected: 'Unexpected error occurred while searching for your account.',
  /** The same words as the profile's change (spec section 8). */
  changeUnexpected: profileMessages.unexpected,
  sendUnexpected: 'Unexpected error while sending password reset email',
  userNotFound: 'Could not find matching account',
  noDevice: 'No MFA device is configured for this account.',
  /** A key-only account (GOVERNANCE.md §7.3, §7.8): passcode and push do not verify it. */
  keyRequired: 'Your organization requires a security key or passkey: verify with your security key.',
  keyRequiredNoKey: 'Contact your sponsor to reset your sign-in methods',
  pushSucceeded: 'PingID push verification succeeded',
  codeSucceeded: 'PingID code verification succeeded',
  resetCodeValidated: 'Reset code validated.',
  resetEmailSent: 'Password reset email sent.',
  passwordChanged: profileMessages.changed,
  // The server's reasons (no trailing period: the web wraps them as 'Invalid reset code. {reason}.').
  noSuchAccount: 'No active account matches this username and email address',
  codeUnknown: 'The code is not valid',
  codeExpired: 'The code has expired',
  codeUsed: 'The code has already been used',
  codeAccountInactive: 'The account is not active',
  notVerified: 'Verify your identity for this account first',
} as const;

export const factorMessages = {
  confirmFirst: 'Confirm your password and passcode first',
  /** The same words as Change Password's and Forgot Password's, from one place each. */
  passwordIncorrect: profileMessages.incorrect,
  passcodeInvalid: recoveryMessages.badPasscode,
  pushNotApproved: 'The request was not approved on your phone',
  notFound: 'This phone is not paired with your account',
  paired: 'Phone paired. We emailed you about it.',
  removed: 'Phone removed. We emailed you about it.',
  /** Forgot Password: a push approved by a phone paired in the last 24 hours. */
  recentDevice:
    'This phone was paired less than 24 hours ago, so it cannot approve a password reset by itself. ' +
    'Use Send Password Reset Email: the link in the email completes the reset.',
} as const;

/** Profile → Sign-in methods and the browser's WebAuthn refusals (GOVERNANCE.md §7.3). */
export const securityKeyMessages = {
  reauthenticate: 'Confirm your current password first.',
  confirmWithKey: 'Confirm with one of your security keys or passkeys first.',
  builtinOnly: 'Security keys are managed by your organization’s sign-in service.',
  /** The browser's own refusals; the IdP's pages and the server's ceremony use these words too. */
  cancelled: 'Sign-in with a security key was cancelled or timed out',
  alreadyRegistered: 'That security key or passkey is already registered',
  unsupported: 'This browser cannot use security keys or passkeys.',
  unexpected: 'The security key could not be checked. Try again.',
  addSecond: 'Add a second security key or passkey so you can still sign in if you lose this one.',
  required: 'An organization you work with requires a security key or passkey.',
  /** GOVERNANCE.md §7.3's words, naming the organization. */
  requiredBy: (organization: string) => `${organization} requires a security key or passkey.`,
} as const;

/** The Acceptable Use Policy's screens and messages (GOVERNANCE.md §8), word for word. */
export const aupMessages = {
  heading: 'Acceptable Use Policy',
  versionLine: (version: number, effectiveOn: string) => `Version ${version}, effective ${effectiveOn}`,
  agree: 'I have read and agree to the Acceptable Use Policy',
  accept: 'Accept and Continue',
  logOut: 'Log Out',
  accepted: 'Thank you. Your acceptance was recorded.',
  /** The answer to every other call while a vendor's acceptance is overdue. */
  blocked: 'Accept the Acceptable Use Policy to continue',
  welcomeAlert: (date: string) =>
    `Please review the Acceptable Use Policy by ${date} to keep using the portal.`,
  reviewNow: 'Review now',
  profileCard: (version: number, acceptedOn: string, dueOn: string) =>
    `Acceptable Use Policy: version ${version} accepted on ${acceptedOn}; next review due ${dueOn}.`,
  readPolicy: 'Read the policy',
  notAsked: 'Only vendor accounts accept the Acceptable Use Policy here.',
  notNewest: 'A newer version of the Acceptable Use Policy was published meanwhile. Read it and accept it.',
  adminHeading: 'Acceptable Use Policy',
  versions: 'Versions',
  publish: 'Publish New Version',
  published: (version: number) => `Version ${version} was published.`,
  notAccepted: 'Who has not accepted',
  download: 'Download CSV',
  titleRequired: 'Enter a title.',
  titleTooLong: 'The title must be at most 200 characters.',
  bodyRequired: 'Enter the policy text.',
  bodyTooLong: 'The policy text must be at most 100,000 characters.',
  effectiveRequired: 'Enter the effective date.',
  effectivePast: 'The effective date cannot be in the past.',
  effectiveTooFar: 'The effective date must be within a year.',
  preview: 'Preview',
} as const;
