// The people of the BRM-facing server tests (approval routing, time-limited access, access
// reviews): employees by username with their roles, their BRM assignments, signed-in clients, the
// mails queued since the last look, and a clean slate of pending requests between tests.
import { createAccount, signInAs } from './sign-in';
import type { TestApp, TestClient } from './test-app';
import { outbox } from './world';

export type StaffFlags = { isEmployeeBrm?: boolean; isAdmin?: boolean };

/** Creates the employees (`username@example.test`, "<Username> Tester"); their ids into `ids`. */
export async function addStaff(
  t: TestApp,
  ids: Record<string, string>,
  staff: readonly (readonly [string, StaffFlags])[],
): Promise<void> {
  for (const [username, flags] of staff)
    ids[username] = await createAccount(t, { username, type: 'employee', ...flags });
}

/** BRM assignments by name: [account, organization, primary or backup]. */
export async function assignBrms(
  t: TestApp,
  ids: Record<string, string>,
  rows: readonly (readonly [string, string, 'primary' | 'backup'])[],
): Promise<void> {
  for (const [account, org, kind] of rows)
    await t.ctx.db
      .insertInto('brm_assignments')
      .values({ account_id: ids[account]!, organization_id: ids[org]!, kind })
      .execute();
}

/** Signs each one in; their clients into `clients`. */
export async function signInAll(
  t: TestApp,
  clients: Record<string, TestClient>,
  usernames: readonly string[],
): Promise<void> {
  for (const name of usernames) clients[name] = await signInAs(t, name);
}

/** Sets an account's email (a vendor of an organization's domain). */
export async function setEmail(t: TestApp, id: string, email: string): Promise<void> {
  await t.ctx.db.updateTable('accounts').set({ email }).where('id', '=', id).execute();
}

/** Each test starts with nothing pending (requests and their items cancelled) and no delegation. */
export async function clearPendingAndDelegations(t: TestApp): Promise<void> {
  for (const table of ['request_items', 'requests'] as const)
    await t.ctx.db.updateTable(table).set({ status: 'cancelled' }).where('status', '=', 'pending').execute();
  await t.ctx.db.deleteFrom('brm_delegations').execute();
}

/**
 * A reader of the mails queued since its last call, as { to, template, subject, text }; `app`
 * answers the test's app (made in its beforeAll).
 */
export function mailsSince(app: () => TestApp, options: { ignoreTemplates?: readonly string[] } = {}) {
  let seen = new Set<string>();
  const ignored = new Set(options.ignoreTemplates ?? []);
  return async () => {
    const all = await outbox(app());
    const fresh = all.filter((m) => !seen.has(m.id) && !ignored.has(m.template));
    seen = new Set(all.map((m) => m.id));
    return fresh.map((m) => ({
      to: m.recipient,
      template: m.template,
      subject: m.subject,
      text: m.text_body,
    }));
  };
}
