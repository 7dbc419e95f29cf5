import { describe, expect, it } from 'vitest';
import { canDecide, canManageVendor, type Decider } from './deciders';

const brm = (orgs: string[]): Decider => ({
  isAdmin: false,
  isEmployeeBrm: true,
  managedOrganizationIds: new Set(orgs),
});

describe('canDecide', () => {
  it('lets a BRM decide items of an organization it manages', () => {
    expect(canDecide(brm(['a', 'b']), { organizationId: 'b' })).toBe(true);
  });
  it('refuses a BRM items of another organization', () => {
    expect(canDecide(brm(['a']), { organizationId: 'b' })).toBe(false);
    expect(canDecide(brm([]), { organizationId: 'a' })).toBe(false);
  });
  it('lets an admin decide every item', () => {
    const admin: Decider = { isAdmin: true, isEmployeeBrm: false, managedOrganizationIds: new Set() };
    expect(canDecide(admin, { organizationId: 'anything' })).toBe(true);
  });
  it('refuses an account that is neither BRM nor admin, even with assignments left over', () => {
    const former: Decider = { isAdmin: false, isEmployeeBrm: false, managedOrganizationIds: new Set(['a']) };
    expect(canDecide(former, { organizationId: 'a' })).toBe(false);
  });
});

describe('canManageVendor', () => {
  it('lets a BRM manage a vendor holding a role of one of its organizations', () => {
    expect(canManageVendor(brm(['a']), ['b', 'a'])).toBe(true);
  });
  it('refuses a BRM a vendor of other organizations only, or of none', () => {
    expect(canManageVendor(brm(['a']), ['b'])).toBe(false);
    expect(canManageVendor(brm(['a']), [])).toBe(false);
  });
  it('lets an admin manage every vendor', () => {
    const admin: Decider = { isAdmin: true, isEmployeeBrm: false, managedOrganizationIds: new Set() };
    expect(canManageVendor(admin, [])).toBe(true);
  });
});
