import { inputText } from './text';

/** Longest username an administrator may give (generated ones are at most 20 characters). */
export const USERNAME_MAX_LENGTH = 64;
const USERNAME_PATTERN = /^[A-Za-z0-9._@-]+$/;

export const usernameMessages = {
  tooLong: `Max ${USERNAME_MAX_LENGTH} characters`,
  invalid: 'A username is letters, digits, dot, dash, underscore or @.',
} as const;

/**
 * The username rule, for every username a request names (the admin's new person, a recovery's
 * account, a manager's target, an access call's beneficiary) and the operators' CLI: trimmed,
 * letters, digits, dot, dash, underscore or @, at most USERNAME_MAX_LENGTH. No username can hold
 * anything else, so nothing else is looked up, and no control or bidi character reaches an audit
 * event or a log line. `required` is the message for an empty one.
 */
/* @__NO_SIDE_EFFECTS__ */
export function usernameField(required = 'Required') {
  return inputText()
    .trim()
    .min(1, required)
    .max(USERNAME_MAX_LENGTH, usernameMessages.tooLong)
    .regex(USERNAME_PATTERN, usernameMessages.invalid);
}
