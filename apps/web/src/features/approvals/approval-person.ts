import type { PendingApproval } from '@pra/contracts';
import { fullName } from '@pra/contracts/session';

/** Who a request is for, as labels name them: the full name, or the email when a name part is missing. */
export function approvalPersonName(item: Pick<PendingApproval, 'firstname' | 'lastname' | 'email'>): string {
  return fullName({ givenName: item.firstname, familyName: item.lastname }) || item.email;
}
