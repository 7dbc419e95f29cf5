import { describe, expect, it } from 'vitest';
import { actors, answers, expectedFor, orgA, orgC } from '../../test/support/policy-actors';
import { compiled } from '../../test/support/policy-sql';
import { can, canSee, scopeOf } from './request';

const ofVendor = (organizationId: string) => ({ organizationId, beneficiaryId: actors.vendor.id });
const ofAnotherVendor = (organizationId: string) => ({ organizationId, beneficiaryId: 'vendor-2' });
const registration = (organizationId: string) => ({ organizationId, beneficiaryId: null });

describe('request policy', () => {
  it('decide: the item’s organization’s BRMs and every admin; a vendor not even its own request', () => {
    const deciders = expectedFor(['brmOfA', 'brmOfAandB', 'admin', 'adminAndBrmOfA']);
    expect(answers((actor) => can(actor, 'decide', registration(orgA)))).toEqual(deciders);
    expect(answers((actor) => can(actor, 'decide', ofVendor(orgA)))).toEqual(deciders);
    expect(answers((actor) => can(actor, 'decide', ofVendor(orgC)))).toEqual(
      expectedFor(['admin', 'adminAndBrmOfA']),
    );
  });

  it('cancel: a vendor its own request’s items, whatever the organization; a manager as decide', () => {
    expect(answers((actor) => can(actor, 'cancel', ofVendor(orgC)))).toEqual(
      expectedFor(['vendor', 'admin', 'adminAndBrmOfA']),
    );
    expect(answers((actor) => can(actor, 'cancel', ofAnotherVendor(orgA)))).toEqual(
      expectedFor(['brmOfA', 'brmOfAandB', 'admin', 'adminAndBrmOfA']),
    );
  });

  it('canSee: a vendor only its own request, a manager any (to be refused its items)', () => {
    expect(answers((actor) => canSee(actor, ofVendor(orgA)))).toEqual(
      expectedFor(['vendor', 'brmOfA', 'brmOfB', 'brmOfAandB', 'admin', 'adminAndBrmOfA']),
    );
    expect(answers((actor) => canSee(actor, ofAnotherVendor(orgA)))).toEqual(
      expectedFor(['brmOfA', 'brmOfB', 'brmOfAandB', 'admin', 'adminAndBrmOfA']),
    );
  });

  it('scopeOf: decide on the items under the alias', () => {
    expect(compiled(scopeOf(actors.brmOfA, 'i')).sql).toContain('"i"."organization_id" in (select');
    expect(compiled(scopeOf(actors.vendor, 'i')).sql).toBe('false');
    expect(compiled(scopeOf(actors.admin, 'i')).sql).toBe('true');
  });
});
