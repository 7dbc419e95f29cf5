import { z } from 'zod';
import { inputText } from './text';
import { emailAddress, personName, plainText } from './text-fields';

const email = emailAddress;

/** POST /api/user/new/email-in-use */
export const emailInUseBody = z.strictObject({ email });
export type EmailInUseBody = z.infer<typeof emailInUseBody>;

/** Whether an email may register: free, on a non-terminated account, or on a pending registration. */
export const emailInUseResult = z.enum(['available', 'activeAccount', 'pendingApproval']);
export type EmailInUseResult = z.infer<typeof emailInUseResult>;

/** POST /api/user/new/submit: a registration (self-service, or by a BRM/admin on a vendor's behalf). */
export const registrationBody = z.strictObject({
  firstName: personName,
  lastName: personName,
  email,
  /** Organization name, one of those owning the email's domain. */
  org: plainText(),
});
export type RegistrationBody = z.infer<typeof registrationBody>;

/** GET /api/user/new/availability: false while account management is in maintenance. */
export const registrationAvailability = z.object({ available: z.boolean() });
export type RegistrationAvailability = z.infer<typeof registrationAvailability>;

export const registrationResponse = z.object({
  requestID: z.string(),
  success: z.boolean(),
  /**
   * Additions (approval routing): when a self-registration expires undecided, as an instant and as
   * the hospital's calendar date (YYYY-MM-DD) the success page shows.
   */
  expiresAt: z.string().optional(),
  expiresOn: z.string().optional(),
});
export type RegistrationResponse = z.infer<typeof registrationResponse>;

/** GET /api/orgs/email-domain?domain= : names of the active organizations owning the domain. */
export const orgsByDomainQuery = z.strictObject({ domain: inputText().trim().min(1).max(253) });
export type OrgsByDomainQuery = z.infer<typeof orgsByDomainQuery>;
export const orgsByDomainResponse = z.array(z.string());
export type OrgsByDomainResponse = z.infer<typeof orgsByDomainResponse>;

/** The domain part of an email address, lower-cased; '' when there is none. */
export function emailDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0
    ? ''
    : address
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

export const registrationMessages = {
  noOrganizations: (domain: string) =>
    `There are no valid organizations associated with your email address domain '${domain}'`,
  unrecognizedDomain: 'Unrecognized email domain',
  emailInUseAdmin: 'This email is already in use on an active account',
  emailInUse:
    'This email is already in use. You can choose to login with the account for this email address, or register a different email address.',
  pending: 'There is already a new user registration pending approval for this email address.',
  emailMismatch: "Provided email doesn't match organization domain(s)",
  /** Said above the form, before anyone fills it in, while registrations are not taken. */
  maintenance:
    'New user registration is unavailable while account management is under maintenance. Please try again later.',
} as const;
