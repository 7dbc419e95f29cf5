import { describe, expect, it } from 'vitest';
import { canDecide } from './can-decide';

const kinds = { type: 'employee' as const, isEmployeeBrm: false, isAdmin: false };

describe('canDecide', () => {
  it("lets a BRM decide only its organizations' requests", () => {
    const brm = { ...kinds, isEmployeeBrm: true, orgs: ['Acme'] };
    expect(canDecide(brm, { org: 'Acme' })).toBe(true);
    expect(canDecide(brm, { org: 'Globex' })).toBe(false);
  });

  it('lets an admin decide any request, and nobody without a user record', () => {
    expect(canDecide({ ...kinds, isAdmin: true, orgs: [] }, { org: 'Globex' })).toBe(true);
    expect(canDecide(undefined, { org: 'Acme' })).toBe(false);
  });

  it('refuses a vendor, whose orgs are the roles it holds, and an employee who is no BRM', () => {
    expect(canDecide({ ...kinds, type: 'vendor', orgs: ['Acme'] }, { org: 'Acme' })).toBe(false);
    expect(canDecide({ ...kinds, orgs: ['Acme'] }, { org: 'Acme' })).toBe(false);
  });
});
