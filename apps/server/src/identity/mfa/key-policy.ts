import type { AppContext } from '../../platform/app-context';
import type { Account } from '../../platform/db-schema';
import { factorsOfUsernames, graceStart, keyStanding, type KeyRequirement } from '../../store/webauthn';
import type { Tx } from '../../platform/db';
import type { ManagedUser } from '@pra/contracts';
import { recordAudit } from '../audit';
import { compose, linkPara, mailSite, para, type MailContent, type MailSite } from '../mail-templates';
import { enqueueMail } from '../outbox';
import { loginUrl, routes } from '@pra/contracts';

const DAY_MS = 86_400_000;

/**
 * What the account's organizations ask of its second factor (GOVERNANCE.md §7.4): any factor
 * (`mfa`), a key to add until `until` (`grace`: passcode and push still sign in, followed by the
 * "Add One Now" interstitial), or a security key or passkey only (`keysOnly`: it has one, or the
 * grace is over).
 */
export type KeyPolicy =
  | { kind: 'mfa' }
  | { kind: 'grace'; organizationName: string; until: Date }
  | { kind: 'keysOnly'; organizationName: string };

/**
 * The account's key policy at `ctx.clock`. The grace of an account without a key starts when the
 * requirement is raised (the tier change, else the governance sweep's `passkey-grace` step); an
 * account found required before either (a sign-in between a policy edit and the next sweep)
 * starts it here: audited (`mfa.requirement-change`) and mailed (W3). When no organization
 * requires a key any more, the grace is forgotten at once.
 */
export async function keyPolicy(
  ctx: AppContext,
  account: Pick<Account, 'id' | 'username' | 'email' | 'given_name'>,
): Promise<KeyPolicy> {
  return (await keyPolicyAndKeys(ctx, account)).policy;
}

/** `keyPolicy`, with the number of keys the account has (read in the same statement). */
export async function keyPolicyAndKeys(
  ctx: AppContext,
  account: Pick<Account, 'id' | 'username' | 'email' | 'given_name'>,
): Promise<{ policy: KeyPolicy; keys: number }> {
  return settleKeyPolicy(ctx, account, await readKeyStanding(ctx, account.id));
}

export type KeyStanding = Awaited<ReturnType<typeof keyStanding>> & { at: Date };

/** What decides the key policy, read in one statement and nothing written: see settleKeyPolicy. */
export async function readKeyStanding(ctx: AppContext, accountId: string): Promise<KeyStanding> {
  const at = ctx.clock.now();
  return { ...(await keyStanding(ctx.db, accountId, at)), at };
}

/**
 * The key policy of a standing read by readKeyStanding (keyPolicy's rules): starts the grace the
 * first time (audited, W3) or forgets it when no organization requires a key any more.
 */
export async function settleKeyPolicy(
  ctx: AppContext,
  account: Pick<Account, 'id' | 'username' | 'email' | 'given_name'>,
  { requirement, keys, graceKept, at: now }: KeyStanding,
): Promise<{ policy: KeyPolicy; keys: number }> {
  if (!requirement) {
    if (graceKept) await graceStart(ctx.db, account.id, false, now);
    return { policy: { kind: 'mfa' }, keys };
  }
  if (keys > 0) return { policy: { kind: 'keysOnly', organizationName: requirement.organizationName }, keys };
  const until = await ctx.db
    .transaction()
    .execute((tx) => beginKeyGrace(tx, mailSite(ctx), account, requirement, now));
  return { policy: graceOrKeysOnly(requirement.organizationName, until, now), keys };
}

/** During the grace (before `until`) a passcode or push still signs in; after it, a key only. */
function graceOrKeysOnly(organizationName: string, until: Date, now: Date): KeyPolicy {
  return now < until ? { kind: 'grace', organizationName, until } : { kind: 'keysOnly', organizationName };
}

/** A key policy as a sign-in's state keeps it (JSON: the grace's end in milliseconds). */
export type StoredKeyPolicy =
  | { kind: 'mfa' }
  | { kind: 'grace'; organizationName: string; until: number }
  | { kind: 'keysOnly'; organizationName: string };

export function storeKeyPolicy(policy: KeyPolicy): StoredKeyPolicy {
  return policy.kind === 'grace' ? { ...policy, until: policy.until.getTime() } : policy;
}

/**
 * The policy a sign-in's passcode page read, as it stands at `now`: a grace that has ended since
 * is a key only. What the page could not see (a tier raised, a key added elsewhere) is the
 * portal's ACS's to catch: it reads the policy afresh before any session is made (sign-in.ts).
 */
export function keptKeyPolicy(stored: StoredKeyPolicy, now: Date): KeyPolicy {
  if (stored.kind !== 'grace') return stored;
  return graceOrKeysOnly(stored.organizationName, new Date(stored.until), now);
}

/**
 * Starts the account's grace at `now` unless one is kept (GOVERNANCE.md §7.4: raising the
 * requirement starts it), audited (`mfa.requirement-change`) and mailed (W3) in the caller's
 * transaction. Answers when the grace (kept or new) ends.
 */
export async function beginKeyGrace(
  tx: Tx,
  site: MailSite,
  account: Pick<Account, 'id' | 'username' | 'email' | 'given_name'>,
  requirement: KeyRequirement,
  now: Date,
): Promise<Date> {
  const grace = await graceStart(tx, account.id, true, now);
  const end = new Date((grace?.since ?? now).getTime() + requirement.graceDays * DAY_MS);
  if (grace?.started) {
    const who = { id: account.id, username: account.username };
    await recordAudit(tx, {
      action: 'mfa.requirement-change',
      outcome: 'success',
      actor: who,
      target: who,
      details: {
        requirement: 'phishingResistantPending',
        organization: requirement.organizationName,
        until: end.toISOString(),
      },
    });
    await enqueueMail(tx, {
      to: account.email,
      ...keyRequiredMail(site, account, requirement.organizationName, end),
    });
  }
  return end;
}

/**
 * The account's key policy at `ctx.clock`, read only: a grace not recorded yet counts as starting
 * now, and nothing is written, audited or mailed (Forgot Password reads it for a caller who has
 * only named the account).
 */
export async function readKeyPolicy(
  ctx: AppContext,
  accountId: string,
): Promise<{ policy: KeyPolicy; keys: number }> {
  const now = ctx.clock.now();
  const { requirement, keys, graceSince } = await keyStanding(ctx.db, accountId, now);
  if (!requirement) return { policy: { kind: 'mfa' }, keys };
  const { organizationName } = requirement;
  if (keys > 0) return { policy: { kind: 'keysOnly', organizationName }, keys };
  const until = new Date((graceSince ?? now).getTime() + requirement.graceDays * DAY_MS);
  return {
    policy: now < until ? { kind: 'grace', organizationName, until } : { kind: 'keysOnly', organizationName },
    keys,
  };
}

/** The date a grace ends, as the interstitial and W3 show it (UTC, YYYY-MM-DD). */
export function graceDate(until: Date): string {
  return until.toISOString().slice(0, 10);
}

/** W3: to the vendor, when an organization's tier starts requiring a security key or passkey. */
export function keyRequiredMail(
  site: MailSite,
  account: Pick<Account, 'username' | 'given_name'>,
  organizationName: string,
  until: Date,
): MailContent {
  const subject = `${organizationName} requires a security key or passkey from ${graceDate(until)}`;
  return compose(site, 'passkey-required', subject, [
    para(`Hello ${account.given_name},`),
    para(
      `${subject}. Until then you can still sign in to your account ${account.username} with your authenticator app; after that only a security key or passkey signs you in.`,
    ),
    linkPara(
      'Add one at your next sign-in (Add One Now) or from your profile:',
      `${site.publicUrl}${loginUrl(routes.profile)}`,
    ),
  ]);
}

/**
 * Manage Users: each vendor's sign-in method (a key counts first) and whether an organization
 * requires it to use a key (Reset Sign-in Methods then needs the identity check), one statement
 * for the page.
 */
export async function withSignInMethods<T extends ManagedUser>(ctx: AppContext, users: T[]): Promise<T[]> {
  const rows = await factorsOfUsernames(
    ctx.db,
    users.map((u) => u.username),
    ctx.clock.now(),
  );
  const found = new Map(
    rows.map((r) => [
      r.username,
      {
        signInMethod: r.has_key ? 'securityKey' : r.has_app ? 'authenticatorApp' : 'none',
        keyRequired: Boolean(r.key_required),
      } as const,
    ]),
  );
  return users.map((u) => ({
    ...u,
    ...(found.get(u.username) ?? { signInMethod: 'none', keyRequired: false }),
  }));
}
