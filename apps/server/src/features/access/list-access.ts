import {
  emailDomain,
  roleName,
  type AvailableRole,
  type CurrentRole,
  type PendingAccessRequest,
} from '@pra/contracts';
import type { Db } from '../../platform/db';
import { activeOrganizations, activeOrganizationsForDomain } from '../../store/organizations';
import { currentGrantsOf, organizationsOfAccount } from '../../store/grants';
import { daysLeft, localDate } from '../../platform/local-time';
import { grantTerms } from '../../identity/governance/grant-terms';
import { grantsOutsideDomain } from '../../policies/organization';
import { pendingExtensionOrganizations, pendingItems } from '../../store/requests';
import { visible, type AccessScope } from './scope';

/**
 * GET /api/vendor/access/current: the roles held, as far as the caller may see them, with when
 * each ends (date and days left in the hospital's time zone, computed here so the browser's clock
 * cannot disagree), its sponsor of record and whether an extension is pending.
 */
export async function listCurrentAccess(
  db: Db,
  scope: AccessScope,
  time: { now: Date; zone: string },
): Promise<CurrentRole[]> {
  const held = await currentGrantsOf(db, scope.beneficiary.id);
  const extending = await pendingExtensionOrganizations(db, scope.beneficiary.id);
  const shown = held.filter((o) => visible(scope, o.id));
  const terms = await Promise.all(shown.map((o) => grantTerms(db, o.id, time.now, time.zone)));
  return shown.map((o, index) => {
    const end = new Date(o.expires_at);
    return {
      name: roleName(o.name),
      display: o.name,
      expiresAt: end.toISOString(),
      endsOn: localDate(end, time.zone),
      daysLeft: daysLeft(time.now, end, time.zone),
      sponsor:
        o.sponsorEmail === null
          ? null
          : {
              name: `${o.sponsorGivenName ?? ''} ${o.sponsorFamilyName ?? ''}`.trim(),
              email: o.sponsorEmail,
            },
      extensionPending: extending.has(o.id),
      defaultEndsOn: terms[index]!.defaultDate,
      maxEndsOn: terms[index]!.maxDate,
    };
  });
}

/** GET /api/vendor/access/pending: pending Add/Remove/Extend requests with their pending items. */
export async function listPendingAccess(
  db: Db,
  scope: AccessScope,
  timeZone: string,
): Promise<PendingAccessRequest[]> {
  const requests = new Map<string, PendingAccessRequest>();
  for (const item of await pendingItems(db, scope.beneficiary.id)) {
    if (!visible(scope, item.organizationId)) continue;
    const request = requests.get(item.requestId) ?? { id: item.requestId, items: [] };
    const reminded = item.reminded_at === null ? null : new Date(item.reminded_at);
    request.items.push({
      display: item.orgName,
      owner: item.owner ?? '',
      operation: item.operation,
      expiresAt: new Date(item.expires_at).toISOString(),
      remindedAt: reminded?.toISOString() ?? null,
      submittedOn: localDate(new Date(item.created_at), timeZone),
      remindedOn: reminded === null ? null : localDate(reminded, timeZone),
      expiresOn: localDate(new Date(item.expires_at), timeZone),
      requestedUntilOn:
        item.requested_until === null ? null : localDate(new Date(item.requested_until), timeZone),
    });
    requests.set(item.requestId, request);
  }
  return [...requests.values()];
}

/**
 * GET /api/vendor/roles: roles of active organizations owning the user's email domain (an admin
 * with `showAll`: every active organization), that the caller may change, minus those held or pending.
 */
export async function listAvailableRoles(
  db: Db,
  scope: AccessScope,
  showAll: boolean,
): Promise<AvailableRole[]> {
  const candidates =
    showAll && grantsOutsideDomain(scope.by)
      ? await activeOrganizations(db)
      : await activeOrganizationsForDomain(db, emailDomain(scope.beneficiary.email));
  const taken = new Set([
    ...(await organizationsOfAccount(db, scope.beneficiary.id)).map((o) => o.id),
    ...(await pendingItems(db, scope.beneficiary.id)).map((i) => i.organizationId),
  ]);
  return candidates
    .filter((o) => !taken.has(o.id) && visible(scope, o.id))
    .map((o) => ({ displayableName: o.name, name: roleName(o.name) }));
}
