import { describe, expect, it } from 'vitest';
import { canDecide } from './can-decide';

describe('canDecide', () => {
  it("lets a BRM decide only its organizations' requests", () => {
    const brm = { orgs: ['Acme'], isAdmin: false };
    expect(canDecide(brm, { org: 'Acme' })).toBe(true);
    expect(canDecide(brm, { org: 'Globex' })).toBe(false);
  });

  it('lets an admin decide any request, and nobody without a user record', () => {
    expect(canDecide({ orgs: [], isAdmin: true }, { org: 'Globex' })).toBe(true);
    expect(canDecide(undefined, { org: 'Acme' })).toBe(false);
  });
});
