/**
 * What happened (or, in a dry run, would happen) to one account of a Terminate Vendors file. An
 * account that is not a vendor of the caller's organizations (another organization's, an
 * employee, an admin, a terminated account) is `notYours` and is never named.
 */
export type AccountOutcome =
  | { kind: 'notYours' }
  | { kind: 'rolesRemoved'; username: string; organizations: string[]; terminated: boolean };

/** The line of an email naming no vendor account of the caller's organizations (unknown ones too). */
export const NO_VENDOR_OF_YOURS = 'No vendor account of your organizations has this email.';

/**
 * The line of an email whose accounts could not be settled (its transaction rolled back): it names
 * no account, as it is said before knowing whose they are.
 */
export const COULD_NOT_PROCESS = 'Could not be processed; nothing changed for this email. Try again.';

/**
 * The result line of one email, in words a BRM reads (and keeps, as the downloaded CSV). It names
 * only vendors of the caller's organizations: every other email gets the one neutral line, so the
 * file tells a BRM nothing about accounts outside its organizations.
 */
export function resultLine(outcomes: AccountOutcome[] | 'duplicate', dryRun: boolean): string {
  if (outcomes === 'duplicate') return 'Listed earlier in the file: handled once.';
  const named = outcomes.filter((outcome) => outcome.kind !== 'notYours');
  if (named.length === 0) return NO_VENDOR_OF_YOURS;
  return named.map((outcome) => accountLine(outcome, dryRun)).join(' ');
}

function accountLine(outcome: Exclude<AccountOutcome, { kind: 'notYours' }>, dryRun: boolean): string {
  const who = `Account ${outcome.username}:`;
  const names = outcome.organizations.join(', ');
  if (dryRun) {
    return outcome.terminated
      ? `${who} would lose its roles in ${names}; the account would be terminated and its sessions ended.`
      : `${who} would lose its roles in ${names}; it keeps its access to other organizations.`;
  }
  return outcome.terminated
    ? `${who} roles removed from ${names}; account terminated, sessions ended.`
    : `${who} roles removed from ${names}; it keeps its access to other organizations.`;
}
