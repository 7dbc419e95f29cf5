import { describe, expect, it } from 'vitest';
import { organizationChoices, registersOnBehalf, type Registrant } from './organization-choices';

const vendor: Registrant = { orgs: ['Acme'], isAdmin: false, isEmployeeBrm: false, type: 'vendor' };
const brm: Registrant = { orgs: ['Acme', 'Initech'], isAdmin: false, isEmployeeBrm: true, type: 'employee' };
// The server's current-user record lists every active organization for an admin.
const admin: Registrant = {
  orgs: ['Acme', 'Acme Imaging', 'Globex'],
  isAdmin: true,
  isEmployeeBrm: false,
  type: 'employee',
};
const domainOrgs = ['Acme', 'Acme Imaging'];

describe('organizationChoices', () => {
  it('offers every organization of the domain to self-registrants', () => {
    expect(organizationChoices(domainOrgs, undefined)).toEqual(domainOrgs);
    expect(organizationChoices(domainOrgs, vendor)).toEqual(domainOrgs);
  });

  it("limits a BRM to the domain's organizations it manages", () => {
    expect(organizationChoices(domainOrgs, brm)).toEqual(['Acme']);
    expect(organizationChoices(['Globex'], brm)).toEqual([]);
  });

  it('lets an admin pick any organization of the domain', () => {
    expect(organizationChoices(domainOrgs, admin)).toEqual(domainOrgs);
  });
});

describe('registersOnBehalf', () => {
  it('is true for BRMs and admins only', () => {
    expect([undefined, vendor, brm, admin].map(registersOnBehalf)).toEqual([false, false, true, true]);
  });
});
