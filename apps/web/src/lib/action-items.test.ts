import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@pra/contracts';
import { actionItems, type ActionKey } from './action-items';

type TestUser = Pick<CurrentUser, 'type' | 'isEmployeeBrm' | 'isAdmin' | 'iiqAvailable'>;

const base: TestUser = { type: 'vendor', isEmployeeBrm: false, isAdmin: false, iiqAvailable: true };
const vendor = base;
const brm = { ...base, type: 'employee' as const, isEmployeeBrm: true };
const admin = { ...base, type: 'employee' as const, isAdmin: true };
const employee = { ...base, type: 'employee' as const };

const keys = (items: { key: ActionKey }[]) => items.map((item) => item.key);

describe('actionItems (welcome cards and nav entries)', () => {
  it('gives vendors profile, manage access, the vault tool and user guides', () => {
    expect(keys(actionItems(vendor))).toEqual(['profile', 'manageAccess', 'credentialVault', 'userGuides']);
  });

  it('gives employee BRMs approvals, users, terminate vendors, new user, away and backup and user guides', () => {
    expect(keys(actionItems(brm))).toEqual([
      'approvals',
      'accessReviews',
      'users',
      'terminateVendors',
      'newUser',
      'away',
      'userGuides',
    ]);
  });

  it('gives admins approvals, users, new user and user guides but not terminate vendors', () => {
    expect(keys(actionItems(admin))).toEqual([
      'approvals',
      'accessReviews',
      'users',
      'newUser',
      'administration',
      'userGuides',
    ]);
  });

  it('tells an auditor who is not an admin what Administration holds for them', () => {
    const auditor = { ...employee, isAuditor: true };
    const item = actionItems(auditor).find((i) => i.key === 'administration');
    expect(item?.description).toBe('Reports for auditors and the audit trail');
    expect(actionItems(admin).find((i) => i.key === 'administration')?.description).toBe(
      'Organizations, people, system message, maintenance, mail and the audit trail',
    );
  });

  it('gives an employee with neither flag only the user guides', () => {
    expect(keys(actionItems(employee))).toEqual(['userGuides']);
  });

  it('gives anonymous visitors only the user guides', () => {
    expect(keys(actionItems(undefined))).toEqual(['userGuides']);
  });

  it('treats a vendor record carrying a BRM flag as a vendor, as the server does', () => {
    const flagged = keys(actionItems({ ...vendor, isEmployeeBrm: true, isAdmin: true }));
    expect(flagged).toEqual(keys(actionItems(vendor)));
  });

  it('enables everything while IIQ is available', () => {
    expect(actionItems(brm).every((item) => !item.disabled)).toBe(true);
  });

  it('disables all but the vault tool and user guides while IIQ is unavailable', () => {
    const disabled = (user: TestUser) =>
      actionItems({ ...user, iiqAvailable: false })
        .filter((item) => item.disabled)
        .map((item) => item.key);
    expect(disabled(vendor)).toEqual(['profile', 'manageAccess']);
    expect(disabled(brm)).toEqual(['approvals', 'users', 'terminateVendors', 'newUser']);
  });

  it('points each card at its route or external page', () => {
    const targets = Object.fromEntries(actionItems(brm).map((item) => [item.key, item.target]));
    expect(targets.approvals).toEqual({ kind: 'route', to: '/brm/pending-approvals' });
    expect(targets.users).toEqual({ kind: 'route', to: '/brm/manage-users' });
    expect(targets.terminateVendors).toEqual({ kind: 'route', to: '/brm/terminate-vendors' });
    expect(targets.newUser).toEqual({ kind: 'route', to: '/new-user' });
    expect(targets.away).toEqual({ kind: 'route', to: '/brm/away' });
    expect(targets.userGuides?.kind).toBe('external');
  });
});
