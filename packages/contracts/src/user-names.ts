// Plain functions with no zod behind them, so the web app's drawn /welcome can name its person
// without loading the schema library (user.ts re-exports them).
import type { CurrentUser } from './session';

/** Full name: given name, a space, family name; empty if either is empty. */
export function fullName(user: Pick<CurrentUser, 'givenName' | 'familyName'>): string {
  return user.givenName && user.familyName ? `${user.givenName} ${user.familyName}` : '';
}
