import type { DirectoryAccount } from './dialects';

export type { DirectoryAccount } from './dialects';

/** The directory cannot be reached or did not answer in time: try again later (503 in a request). */
export class DirectoryUnavailableError extends Error {
  override name = 'DirectoryUnavailableError';
}

/** The directory's own password policy refused a password; `message` is for the person. */
export class PasswordRefusedError extends Error {
  override name = 'PasswordRefusedError';
}

/** What the directory holds of one portal-managed account, for reconciliation. */
export interface DirectoryAccountState {
  username: string;
  /** Its DN, normalized (normalizeDn). */
  dn: string;
  enabled: boolean;
  /** The portal-managed groups (role names) it is a member of. */
  groups: string[];
}

/**
 * Where vendors' accounts live and sign in (docs/design/directory.md): the portal's own database
 * (builtin) or the hospital's directory (ldap). Every operation is idempotent: running it twice
 * leaves what running it once does.
 */
export interface IdentityStore {
  kind: 'builtin' | 'ldap';
  /** The organization's group (its role name) exists. */
  ensureGroup(roleName: string): Promise<void>;
  /** The account exists, with these names and mail (created disabled, without a password). */
  ensureAccount(account: DirectoryAccount): Promise<void>;
  /** Sets the password (throws PasswordRefusedError when the directory's policy says no). */
  setPassword(username: string, password: string): Promise<void>;
  /** Whether the password is the account's (a bind as the account). */
  checkPassword(username: string, password: string): Promise<boolean>;
  /**
   * checkPassword's work for an account that is not in the directory, touching none: the same
   * look-up and a bind that fails. A sign-in for anyone else runs it beside its own check, so that
   * how long the answer takes does not tell a directory account from an unknown username.
   */
  rehearsePasswordCheck(password: string): Promise<void>;
  /** Member of exactly these portal-managed groups; groups the portal does not manage are left alone. */
  setRoles(username: string, roleNames: readonly string[]): Promise<void>;
  setEnabled(username: string, enabled: boolean): Promise<void>;
  /** No portal-managed group, disabled, and moved to the terminated OU when one is set. */
  terminate(username: string): Promise<void>;
  /** A bind and a base read within the timeout, cached a few seconds. */
  health(): Promise<{ ok: boolean; reason: string | null }>;
  /** Every account of the vendors' (and terminated) OU, for reconciliation (builtin: none). */
  listAccounts(): Promise<DirectoryAccountState[]>;
  /** Every portal-managed group and its members' DNs (normalized), for reconciliation. */
  listGroups(): Promise<Map<string, string[]>>;
  /** Takes a member (by DN) out of a portal-managed group (reconciliation of a hand-made member). */
  removeMember(roleName: string, memberDn: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The built-in store: the portal's database is the directory (accounts' status, argon2id hashes,
 * role grants, all written by the features' own transactions), so there is nothing else to write.
 */
export const builtinIdentityStore: IdentityStore = {
  kind: 'builtin',
  ensureGroup: async () => {},
  ensureAccount: async () => {},
  setPassword: async () => {},
  checkPassword: async () => false,
  rehearsePasswordCheck: async () => {},
  setRoles: async () => {},
  setEnabled: async () => {},
  terminate: async () => {},
  health: async () => ({ ok: true, reason: null }),
  listAccounts: async () => [],
  listGroups: async () => new Map(),
  removeMember: async () => {},
  close: async () => {},
};
