import { activationMessages } from '@pra/contracts';
import { AppError } from '../../platform/app-error';
import { findCodeWithAccount } from '../../store/codes';
import { hashCode, normalizeCode } from '../../identity/codes';
import type { Db, Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';

export type CodeCheck =
  | { isValid: true; codeId: string; account: Account }
  | { isValid: false; invalidReason: string; conflict: boolean };

const invalid = (invalidReason: string, conflict = false): CodeCheck => ({
  isValid: false,
  invalidReason,
  conflict,
});

/**
 * What an activation code is worth right now: unknown (also a reset code, or a code that is
 * not even well-formed), used, expired, for an account no longer pending, or valid.
 */
export async function checkActivationCode(
  db: Db | Tx,
  pepper: string,
  claimCode: string,
): Promise<CodeCheck> {
  if (normalizeCode(claimCode).length !== 16) return invalid(activationMessages.unknownCode);
  const row = await findCodeWithAccount(db, hashCode(pepper, claimCode));
  if (!row || row.kind !== 'activation') return invalid(activationMessages.unknownCode);
  if (row.used_at) return invalid(activationMessages.usedCode, true);
  if (row.expired) return invalid(activationMessages.expiredCode);
  if (row.status !== 'pendingActivation') return invalid(activationMessages.notPending, true);
  const { codeId, kind: _kind, used_at: _used, expired: _expired, ...account } = row;
  return { isValid: true, codeId, account };
}

/** The refusal for an invalid code on a call that needs a valid one. */
export function codeRefusal(check: Extract<CodeCheck, { isValid: false }>): AppError {
  return new AppError(check.conflict ? 'conflict' : 'badRequest', check.invalidReason);
}

export { accountSummary as summary } from '../../identity/accounts';
