import { createHash } from 'node:crypto';
import { Attribute, Change, escapeFilter, type Entry } from 'ldapts';

/** What the portal knows of a vendor, as the directory's account carries it. */
export interface DirectoryAccount {
  username: string;
  givenName: string;
  familyName: string;
  email: string;
}

export const displayName = (a: DirectoryAccount) => `${a.givenName} ${a.familyName}`.trim() || a.username;

/**
 * How one kind of directory spells accounts, groups, passwords and the disabled state
 * (LDAP_PROFILE). Everything here is pure: the store (ldap-store.ts) does the talking.
 */
export interface Dialect {
  profile: 'openldap' | 'active-directory';
  /** The attribute holding the portal's username. */
  usernameAttribute: string;
  /** The RDN attribute of a new account (its value is the username). */
  rdnAttribute: string;
  accountFilter(username: string): string;
  /** Every account of the vendors' OU (reconciliation). */
  allAccountsFilter: string;
  groupFilter: string;
  memberFilter(memberDn: string): string;
  /** The attributes of a new account: created disabled, without a password. */
  newAccount(account: DirectoryAccount): Record<string, string | string[]>;
  /** The attributes a read needs to compare and to tell the disabled state. */
  readAttributes: string[];
  /** The changes that make an existing account's names and mail the portal's (none when equal). */
  nameChanges(account: DirectoryAccount, entry: Entry): Change[];
  passwordChange(password: string): Change[];
  isEnabled(entry: Entry): boolean;
  /** The changes that enable or disable the account (none when it already is). */
  enabledChanges(entry: Entry, enabled: boolean): Change[];
  newGroup(name: string): Record<string, string | string[]>;
  /** The attribute listing a group's members (by DN). */
  memberAttribute: string;
  /** OpenLDAP's groupOfNames needs one member: a placeholder nobody signs in as. */
  placeholderMember: string | null;
}

const replace = (type: string, values: string[] | Buffer[]) =>
  new Change({ operation: 'replace', modification: new Attribute({ type, values }) });

export function firstValue(entry: Entry, attribute: string): string | undefined {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key ? entry[key] : undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

export function allValues(entry: Entry, attribute: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key ? entry[key] : undefined;
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => v.toString());
}

function nameChanges(wanted: Record<string, string>, entry: Entry): Change[] {
  return Object.entries(wanted)
    .filter(([type, value]) => value !== '' && firstValue(entry, type) !== value)
    .map(([type, value]) => replace(type, [value]));
}

/** ppolicy's "locked by an administrator until unlocked" value (slapo-ppolicy(5)). */
export const PERMANENTLY_LOCKED = '000001010000Z';

export const openldap: Dialect = {
  profile: 'openldap',
  usernameAttribute: 'uid',
  rdnAttribute: 'uid',
  accountFilter: (username) => escapeFilter`(&(objectClass=inetOrgPerson)(uid=${username}))`,
  allAccountsFilter: '(objectClass=inetOrgPerson)',
  groupFilter: '(objectClass=groupOfNames)',
  memberFilter: (dn) => escapeFilter`(&(objectClass=groupOfNames)(member=${dn}))`,
  newAccount: (a) => ({
    objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
    uid: a.username,
    cn: displayName(a),
    sn: a.familyName || a.username,
    ...(a.givenName && { givenName: a.givenName }),
    ...(a.email && { mail: a.email }),
    displayName: displayName(a),
    pwdAccountLockedTime: PERMANENTLY_LOCKED,
  }),
  readAttributes: ['uid', 'cn', 'sn', 'givenName', 'mail', 'displayName', 'pwdAccountLockedTime'],
  nameChanges: (a, entry) =>
    nameChanges(
      {
        givenName: a.givenName,
        sn: a.familyName,
        mail: a.email,
        displayName: displayName(a),
        cn: displayName(a),
      },
      entry,
    ),
  passwordChange: (password) => [replace('userPassword', [password])],
  isEnabled: (entry) => firstValue(entry, 'pwdAccountLockedTime') === undefined,
  enabledChanges(entry, enabled) {
    if (this.isEnabled(entry) === enabled) return [];
    return enabled
      ? [new Change({ operation: 'delete', modification: new Attribute({ type: 'pwdAccountLockedTime' }) })]
      : [replace('pwdAccountLockedTime', [PERMANENTLY_LOCKED])];
  },
  newGroup: (name) => ({ objectClass: ['top', 'groupOfNames'], cn: name, member: '' }),
  memberAttribute: 'member',
  placeholderMember: '',
};

/** userAccountControl bits (MS-ADTS 2.2.16). */
export const UF_ACCOUNTDISABLE = 0x0002;
export const UF_NORMAL_ACCOUNT = 0x0200;

/** AD's unicodePwd: the password in double quotes, as UTF-16LE bytes (MS-ADTS 3.1.1.3.1.5.2). */
export function unicodePwd(password: string): Buffer {
  return Buffer.from(`"${password}"`, 'utf16le');
}

function userAccountControl(entry: Entry): number {
  const value = Number(firstValue(entry, 'userAccountControl'));
  return Number.isInteger(value) ? value : UF_NORMAL_ACCOUNT | UF_ACCOUNTDISABLE;
}

/** The userAccountControl value with ACCOUNTDISABLE set or cleared, every other bit kept. */
export function withDisabledBit(control: number, enabled: boolean): number {
  return enabled ? control & ~UF_ACCOUNTDISABLE : control | UF_ACCOUNTDISABLE;
}

/** A global security group (groupType GLOBAL_GROUP | SECURITY_ENABLED). */
export const AD_GLOBAL_SECURITY_GROUP = String(0x00000002 | -0x80000000);

/** Characters Active Directory refuses in a sAMAccountName (a role name may hold some: "A, Inc."). */
const SAM_INVALID = /["/\\[\]:;|=,+*?<>@]/g;

/**
 * A group's sAMAccountName (its pre-Windows 2000 name) for a role name: the name itself when AD
 * accepts it; otherwise the refused characters become `_` and a short hash of the whole name keeps
 * two such names apart. The group's cn stays the role name.
 */
export function groupAccountName(roleName: string): string {
  const cleaned = roleName.replace(SAM_INVALID, '_');
  if (cleaned === roleName && roleName.length <= 256) return roleName;
  const hash = createHash('sha256').update(roleName).digest('hex').slice(0, 8);
  return `${cleaned.slice(0, 247)}-${hash}`;
}

export const activeDirectory: Dialect = {
  profile: 'active-directory',
  usernameAttribute: 'sAMAccountName',
  rdnAttribute: 'cn',
  accountFilter: (username) => escapeFilter`(&(objectClass=user)(sAMAccountName=${username}))`,
  allAccountsFilter: '(&(objectClass=user)(objectCategory=person))',
  groupFilter: '(objectClass=group)',
  memberFilter: (dn) => escapeFilter`(&(objectClass=group)(member=${dn}))`,
  newAccount: (a) => ({
    objectClass: ['top', 'person', 'organizationalPerson', 'user'],
    cn: a.username,
    sAMAccountName: a.username,
    ...(a.givenName && { givenName: a.givenName }),
    ...(a.familyName && { sn: a.familyName }),
    ...(a.email && { mail: a.email }),
    displayName: displayName(a),
    userAccountControl: String(UF_NORMAL_ACCOUNT | UF_ACCOUNTDISABLE),
  }),
  readAttributes: ['sAMAccountName', 'givenName', 'sn', 'mail', 'displayName', 'userAccountControl'],
  nameChanges: (a, entry) =>
    nameChanges(
      { givenName: a.givenName, sn: a.familyName, mail: a.email, displayName: displayName(a) },
      entry,
    ),
  passwordChange: (password) => [replace('unicodePwd', [unicodePwd(password)])],
  isEnabled: (entry) => (userAccountControl(entry) & UF_ACCOUNTDISABLE) === 0,
  enabledChanges(entry, enabled) {
    const current = userAccountControl(entry);
    const next = withDisabledBit(current, enabled);
    return next === current ? [] : [replace('userAccountControl', [String(next)])];
  },
  newGroup: (name) => ({
    objectClass: ['top', 'group'],
    cn: name,
    sAMAccountName: groupAccountName(name),
    groupType: AD_GLOBAL_SECURITY_GROUP,
  }),
  memberAttribute: 'member',
  placeholderMember: null,
};

export function dialectOf(profile: 'openldap' | 'active-directory'): Dialect {
  return profile === 'active-directory' ? activeDirectory : openldap;
}
