import type { AppContext } from '../../platform/app-context';
import type { Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { recordAudit } from '../audit';
import { factorChangedMail, mailSite } from '../mail-templates';
import { enqueueMail } from '../outbox';

/** A second factor added to or removed from an account, as its owner is told. */
export interface FactorChange {
  account: Pick<Account, 'id' | 'username' | 'given_name' | 'email'>;
  change: 'added' | 'removed';
  /** `mfa.pair`, `mfa.unpair`, `mfa.enrol`. */
  action: string;
  /** What the factor is, as people call it: "phone", "authenticator app". */
  kind: string;
  nickname: string;
  clientAddress: string;
  details?: Record<string, string>;
}

/**
 * Records a factor change in the caller's transaction: the audit event, and the mail that tells
 * the owner at once (with what to do if it was not them). Every way a factor is added, replaced
 * or removed goes through here.
 */
export async function recordFactorChange(tx: Tx, ctx: AppContext, change: FactorChange): Promise<void> {
  const { account } = change;
  await recordAudit(tx, {
    action: change.action,
    outcome: 'success',
    actor: { id: account.id, username: account.username },
    target: { id: account.id, username: account.username },
    clientAddress: change.clientAddress,
    details: { nickname: change.nickname, ...change.details },
  });
  await enqueueMail(tx, {
    to: account.email,
    ...factorChangedMail(mailSite(ctx), {
      firstName: account.given_name,
      username: account.username,
      change: change.change,
      kind: change.kind,
      nickname: change.nickname,
    }),
  });
}
