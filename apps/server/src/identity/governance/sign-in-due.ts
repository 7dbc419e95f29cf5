import type { ManagedUser } from '@pra/contracts';
import { readPolicyBook } from './sweep';
import { localDate } from '../../platform/local-time';
import type { AppContext } from '../../platform/app-context';
import { inactivityClocks } from '../../store/dormancy';

const DAY_MS = 86_400_000;

/**
 * Manage Users' dormant warning (GOVERNANCE.md §6.2): an active vendor inside the warning window
 * of its tier (the first warning has gone or is due) gets `signInDueBy`, the last day a sign-in
 * keeps the account. One statement for the page's rows.
 */
export async function withSignInDue<T extends ManagedUser>(ctx: AppContext, users: T[]): Promise<T[]> {
  const active = users.filter((u) => u.status === 'active').map((u) => u.username);
  const clocks = await inactivityClocks(ctx.db, active);
  if (clocks.length === 0) return users;
  const policies = await readPolicyBook(ctx.db);
  const now = ctx.clock.now();
  const due = new Map<string, string>();
  for (const c of clocks) {
    const policy = policies[c.high ? 'high' : 'standard'];
    const disableAt = new Date(c.clock_start).getTime() + policy.inactivityDisableDays * DAY_MS;
    const warnFrom = disableAt - Math.max(0, ...policy.inactivityWarningDays) * DAY_MS;
    if (now.getTime() >= warnFrom)
      due.set(c.username, localDate(new Date(disableAt - 1), ctx.config.PORTAL_TIME_ZONE));
  }
  return users.map((u) => (due.has(u.username) ? { ...u, signInDueBy: due.get(u.username) } : u));
}
