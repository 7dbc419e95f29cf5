import { ROLE_PREFIX, ROLE_SUFFIX } from '@pra/contracts';
import {
  Attribute,
  Change,
  Client,
  ConstraintViolationError,
  InvalidCredentialsError,
  AlreadyExistsError,
  TypeOrValueExistsError,
  NoSuchAttributeError,
  UnwillingToPerformError,
  ResultCodeError,
  type Entry,
} from 'ldapts';
import { randomUUID } from 'node:crypto';
import type { ConnectionOptions } from 'node:tls';
import { allValues, dialectOf, firstValue, type Dialect } from './dialects';
import { childDn, normalizeDn } from './dn';
import { lastAnswer, type LastAnswer } from '../last-answer';
import {
  DirectoryUnavailableError,
  PasswordRefusedError,
  type DirectoryAccount,
  type DirectoryAccountState,
  type IdentityStore,
} from './identity-store';

export interface LdapSettings {
  url: string;
  profile: 'openldap' | 'active-directory';
  bindDn: string;
  bindPassword: string;
  vendorsDn: string;
  groupsDn: string;
  terminatedDn?: string | undefined;
  startTls: boolean;
  /** PEM of the CA(s) to trust for LDAPS/StartTLS; unset: the system's. */
  ca?: string | undefined;
  timeoutMs: number;
  healthCacheMs: number;
  /** A monotonic clock in ms (performance.now), for the health cache. */
  now?: () => number;
}

/** Whether a group name is one the portal manages (an organization's role name). */
export function isPortalGroup(name: string): boolean {
  return name.startsWith(ROLE_PREFIX) && name.endsWith(ROLE_SUFFIX);
}

/** LDAP result codes that mean "not now" rather than "no": busy, unavailable, unwilling-by-load. */
const TRANSIENT_CODES = new Set([51, 52, 3, 80]);

/** An error of the directory's as the store reports it: unavailable (retry later) or as it is. */
function classify(error: unknown): Error {
  if (error instanceof DirectoryUnavailableError || error instanceof PasswordRefusedError) return error;
  if (error instanceof ResultCodeError && !TRANSIENT_CODES.has(error.code)) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new DirectoryUnavailableError(`directory unavailable: ${text}`);
}

/**
 * The directory's refusal of a password in words a person understands: the portal's own policy
 * passed it, so what is left is the hospital's (history, length, complexity). OpenLDAP's ppolicy
 * says which; Active Directory says only that the restrictions were not met.
 */
export function passwordRefusal(error: ResultCodeError): PasswordRefusedError {
  const said = error.message.toLowerCase();
  if (said.includes('history')) {
    return new PasswordRefusedError(
      "The hospital's directory refused this password: it was used before. Choose one you have not used.",
    );
  }
  if (said.includes('too short') || said.includes('quality') || said.includes('complexity')) {
    return new PasswordRefusedError(
      "The hospital's directory refused this password: it is too short or too simple for its policy. Choose a longer one.",
    );
  }
  return new PasswordRefusedError(
    "The hospital's directory refused this password (its password policy: length, complexity or an earlier password). Choose another one.",
  );
}

const refusesPassword = (error: unknown): error is ResultCodeError =>
  error instanceof ConstraintViolationError || error instanceof UnwillingToPerformError;

/** The hospital's directory (IDENTITY_STORE=ldap), in the OpenLDAP or Active Directory dialect. */
export class LdapIdentityStore implements IdentityStore {
  readonly kind = 'ldap' as const;
  readonly dialect: Dialect;
  private readonly healthAnswer: LastAnswer<{ ok: boolean; reason: string | null }>;

  constructor(private readonly settings: LdapSettings) {
    this.dialect = dialectOf(settings.profile);
    // Asked again once older than the cache, behind the last answer (platform/last-answer.ts):
    // nobody waits on a directory that hangs. A probe takes at most a connection, a bind and a
    // read, each up to the timeout; an answer older than the cache and that is not believed.
    this.healthAnswer = lastAnswer({
      probe: () =>
        this.asService(async (client) => {
          await client.search(settings.vendorsDn, { scope: 'base', attributes: ['1.1'], timeLimit: 5 });
        }).then(
          () => ({ ok: true, reason: null }),
          (error: unknown) => ({ ok: false, reason: error instanceof Error ? error.message : String(error) }),
        ),
      freshMs: settings.healthCacheMs,
      trustMs: settings.healthCacheMs + 3 * settings.timeoutMs,
      untrusted: (ageMs) => ({
        ok: false,
        reason: `no answer to the health check for ${Math.round(ageMs / 1000)} s`,
      }),
      now: settings.now,
    });
  }

  private tlsOptions(): ConnectionOptions {
    return { ...(this.settings.ca && { ca: this.settings.ca }), minVersion: 'TLSv1.2' };
  }

  /** A fresh connection, over TLS when configured, bound as `dn`. */
  private async connect(dn: string, password: string): Promise<Client> {
    const client = new Client({
      url: this.settings.url,
      timeout: this.settings.timeoutMs,
      connectTimeout: this.settings.timeoutMs,
      // ldapts speaks TLS from the start whenever tlsOptions are given: only for ldaps://.
      ...(this.settings.url.startsWith('ldaps:') && { tlsOptions: this.tlsOptions() }),
      strictDN: false,
    });
    try {
      if (this.settings.startTls) await client.startTLS(this.tlsOptions());
      await client.bind(dn, password);
      return client;
    } catch (error) {
      await client.unbind().catch(() => {});
      throw error;
    }
  }

  /** Runs `work` on a connection bound as the portal's service account. */
  private async asService<T>(work: (client: Client) => Promise<T>): Promise<T> {
    let client: Client | undefined;
    try {
      client = await this.connect(this.settings.bindDn, this.settings.bindPassword);
      return await work(client);
    } catch (error) {
      throw classify(error);
    } finally {
      await client?.unbind().catch(() => {});
    }
  }

  private async findAccount(client: Client, username: string): Promise<Entry | null> {
    const bases = [this.settings.vendorsDn, this.settings.terminatedDn].filter((b): b is string =>
      Boolean(b),
    );
    for (const base of bases) {
      const found = await this.searchAccount(client, base, username);
      if (found) return found;
    }
    return null;
  }

  /** The account named `username` under `base`, or null. */
  private async searchAccount(client: Client, base: string, username: string): Promise<Entry | null> {
    const { searchEntries } = await client.search(base, {
      scope: 'sub',
      filter: this.dialect.accountFilter(username),
      attributes: this.dialect.readAttributes,
      sizeLimit: 2,
    });
    return searchEntries[0] ?? null;
  }

  private async requireAccount(client: Client, username: string): Promise<Entry> {
    const entry = await this.findAccount(client, username);
    if (!entry) throw new Error(`no directory account ${username} under ${this.settings.vendorsDn}`);
    return entry;
  }

  private groupDn(roleName: string): string {
    return childDn('cn', roleName, this.settings.groupsDn);
  }

  private async addGroup(client: Client, roleName: string): Promise<void> {
    try {
      await client.add(this.groupDn(roleName), this.dialect.newGroup(roleName));
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
    }
  }

  ensureGroup(roleName: string): Promise<void> {
    return this.asService((client) => this.addGroup(client, roleName));
  }

  ensureAccount(account: DirectoryAccount): Promise<void> {
    return this.asService(async (client) => {
      const entry = await this.findAccount(client, account.username);
      if (!entry) {
        const dn = childDn(this.dialect.rdnAttribute, account.username, this.settings.vendorsDn);
        try {
          await client.add(dn, this.dialect.newAccount(account));
          return;
        } catch (error) {
          if (!(error instanceof AlreadyExistsError)) throw error;
        }
      }
      const current = entry ?? (await this.requireAccount(client, account.username));
      const changes = this.dialect.nameChanges(account, current);
      if (changes.length > 0) await client.modify(current.dn, changes);
    });
  }

  setPassword(username: string, password: string): Promise<void> {
    return this.asService(async (client) => {
      const entry = await this.requireAccount(client, username);
      try {
        await client.modify(entry.dn, this.dialect.passwordChange(password));
      } catch (error) {
        if (refusesPassword(error)) throw passwordRefusal(error);
        throw error;
      }
    });
  }

  async checkPassword(username: string, password: string): Promise<boolean> {
    // An empty password would be an unauthenticated bind, which succeeds (RFC 4513 5.1.2).
    if (password === '') return false;
    const entry = await this.asService((client) => this.findAccount(client, username));
    if (!entry) return false;
    return this.bindsAs(entry.dn, password);
  }

  async rehearsePasswordCheck(password: string): Promise<void> {
    if (password === '') return;
    // A name no account has: the look-up finds nothing, and the bind is refused as a wrong password.
    const absent = `pra-absent-${randomUUID()}`;
    await this.asService((client) => this.searchAccount(client, this.settings.vendorsDn, absent));
    await this.bindsAs(childDn(this.dialect.rdnAttribute, absent, this.settings.vendorsDn), password);
  }

  /** Whether `password` binds as `dn` (false: refused as invalid credentials). */
  private async bindsAs(dn: string, password: string): Promise<boolean> {
    try {
      const client = await this.connect(dn, password);
      await client.unbind().catch(() => {});
      return true;
    } catch (error) {
      if (error instanceof InvalidCredentialsError) return false;
      throw classify(error);
    }
  }

  /** The portal-managed groups `dn` is a member of, by name. */
  private async groupsOf(client: Client, dn: string): Promise<Map<string, string>> {
    const { searchEntries } = await client.search(this.settings.groupsDn, {
      scope: 'sub',
      filter: this.dialect.memberFilter(dn),
      attributes: ['cn'],
    });
    const groups = new Map<string, string>();
    for (const group of searchEntries) {
      const name = firstValue(group, 'cn');
      if (name && isPortalGroup(name)) groups.set(name, group.dn);
    }
    return groups;
  }

  private async changeMember(client: Client, groupDn: string, memberDn: string, add: boolean): Promise<void> {
    const type = this.dialect.memberAttribute;
    const placeholder = this.dialect.placeholderMember;
    try {
      if (add) {
        await client.modify(
          groupDn,
          new Change({ operation: 'add', modification: new Attribute({ type, values: [memberDn] }) }),
        );
        return;
      }
      // groupOfNames needs a member: the placeholder goes in first, so the last real one can leave.
      const changes = [
        new Change({ operation: 'delete', modification: new Attribute({ type, values: [memberDn] }) }),
      ];
      if (placeholder !== null) await this.keepPlaceholder(client, groupDn);
      await client.modify(groupDn, changes);
    } catch (error) {
      if (add && error instanceof TypeOrValueExistsError) return;
      if (!add && error instanceof NoSuchAttributeError) return;
      throw error;
    }
  }

  private async keepPlaceholder(client: Client, groupDn: string): Promise<void> {
    const type = this.dialect.memberAttribute;
    const values = [this.dialect.placeholderMember ?? ''];
    try {
      await client.modify(
        groupDn,
        new Change({ operation: 'add', modification: new Attribute({ type, values }) }),
      );
    } catch (error) {
      if (!(error instanceof TypeOrValueExistsError)) throw error;
    }
  }

  private async applyRoles(client: Client, dn: string, roleNames: readonly string[]): Promise<void> {
    const current = await this.groupsOf(client, dn);
    const wanted = new Set(roleNames);
    for (const name of wanted) {
      if (current.has(name)) continue;
      await this.addGroup(client, name);
      await this.changeMember(client, this.groupDn(name), dn, true);
    }
    for (const [name, groupDn] of current) {
      if (!wanted.has(name)) await this.changeMember(client, groupDn, dn, false);
    }
  }

  setRoles(username: string, roleNames: readonly string[]): Promise<void> {
    return this.asService(async (client) => {
      const entry = await this.requireAccount(client, username);
      await this.applyRoles(client, entry.dn, roleNames);
    });
  }

  setEnabled(username: string, enabled: boolean): Promise<void> {
    return this.asService(async (client) => {
      const entry = await this.requireAccount(client, username);
      const changes = this.dialect.enabledChanges(entry, enabled);
      if (changes.length > 0) await client.modify(entry.dn, changes);
    });
  }

  terminate(username: string): Promise<void> {
    return this.asService(async (client) => {
      const entry = await this.findAccount(client, username);
      if (!entry) return;
      await this.applyRoles(client, entry.dn, []);
      const changes = this.dialect.enabledChanges(entry, false);
      if (changes.length > 0) await client.modify(entry.dn, changes);
      const terminated = this.settings.terminatedDn;
      if (terminated && !normalizeDn(entry.dn).endsWith(`,${normalizeDn(terminated)}`)) {
        const rdn = entry.dn.split(/(?<!\\),/)[0] as string;
        try {
          await client.modifyDN(entry.dn, `${rdn},${terminated}`);
        } catch (error) {
          if (!(error instanceof AlreadyExistsError)) throw error;
        }
      }
    });
  }

  /** The directory's health: a bind and a base read, cached (see the constructor). */
  health(): Promise<{ ok: boolean; reason: string | null }> {
    return this.healthAnswer.get();
  }

  listAccounts(): Promise<DirectoryAccountState[]> {
    return this.asService(async (client) => {
      const groups = await this.listGroupsWith(client);
      const memberships = new Map<string, string[]>();
      for (const [name, members] of groups) {
        for (const dn of members) memberships.set(dn, [...(memberships.get(dn) ?? []), name]);
      }
      const bases = [this.settings.vendorsDn, this.settings.terminatedDn].filter((b): b is string =>
        Boolean(b),
      );
      const accounts: DirectoryAccountState[] = [];
      for (const base of bases) {
        const { searchEntries } = await client.search(base, {
          scope: 'sub',
          filter: this.dialect.allAccountsFilter,
          attributes: this.dialect.readAttributes,
          paged: { pageSize: 500 },
        });
        for (const entry of searchEntries) {
          const username = firstValue(entry, this.dialect.usernameAttribute);
          if (!username) continue;
          accounts.push({
            username,
            dn: normalizeDn(entry.dn),
            enabled: this.dialect.isEnabled(entry),
            groups: (memberships.get(normalizeDn(entry.dn)) ?? []).sort(),
          });
        }
      }
      return accounts;
    });
  }

  /** Portal-managed groups and their members' DNs (normalized). */
  private async listGroupsWith(client: Client): Promise<Map<string, string[]>> {
    const { searchEntries } = await client.search(this.settings.groupsDn, {
      scope: 'sub',
      filter: this.dialect.groupFilter,
      attributes: ['cn', this.dialect.memberAttribute],
      paged: { pageSize: 500 },
    });
    const groups = new Map<string, string[]>();
    for (const group of searchEntries) {
      const name = firstValue(group, 'cn');
      if (!name || !isPortalGroup(name)) continue;
      groups.set(
        name,
        allValues(group, this.dialect.memberAttribute)
          .filter((dn) => dn !== '')
          .map(normalizeDn),
      );
    }
    return groups;
  }

  listGroups(): Promise<Map<string, string[]>> {
    return this.asService((client) => this.listGroupsWith(client));
  }

  removeMember(roleName: string, memberDn: string): Promise<void> {
    return this.asService((client) => this.changeMember(client, this.groupDn(roleName), memberDn, false));
  }

  /** The DN of an account, or null (reconciliation names members by DN). */
  accountDn(username: string): Promise<string | null> {
    return this.asService(async (client) => (await this.findAccount(client, username))?.dn ?? null);
  }

  async close(): Promise<void> {}
}
