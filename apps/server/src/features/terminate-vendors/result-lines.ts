/** What happened (or, in a dry run, would happen) to one account of a Terminate Vendors file. */
export type AccountOutcome =
  | { kind: 'notYours'; username: string }
  | { kind: 'alreadyTerminated'; username: string }
  | { kind: 'rolesRemoved'; username: string; organizations: string[]; terminated: boolean }
  | { kind: 'failed'; username: string };

/** The result line of one email, in words a BRM reads (and keeps, as the downloaded CSV). */
export function resultLine(outcomes: AccountOutcome[] | 'notFound' | 'duplicate', dryRun: boolean): string {
  if (outcomes === 'duplicate') return 'Listed earlier in the file: handled once.';
  if (outcomes === 'notFound') return 'Not found: no account has this email.';
  return outcomes.map((outcome) => accountLine(outcome, dryRun)).join(' ');
}

function accountLine(outcome: AccountOutcome, dryRun: boolean): string {
  const who = `Account ${outcome.username}:`;
  switch (outcome.kind) {
    case 'notYours':
      return `${who} not a vendor of your organizations; nothing changed.`;
    case 'alreadyTerminated':
      return `${who} already terminated; nothing changed.`;
    case 'failed':
      return `${who} could not be processed; nothing changed. Try again.`;
    case 'rolesRemoved': {
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
  }
}
