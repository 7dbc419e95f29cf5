import { describe, expect, it } from 'vitest';
import { actors, answers, expectedFor, orgA, orgC } from '../../test/support/policy-actors';
import { compiled } from '../../test/support/policy-sql';
import { can, grantsOutsideDomain, scopeOf } from './organization';

describe('organization policy', () => {
  it('manage: an admin every organization, a BRM those assigned to it, nobody else', () => {
    expect(answers((actor) => can(actor, 'manage', { id: orgA }))).toEqual(
      expectedFor(['brmOfA', 'brmOfAandB', 'admin', 'adminAndBrmOfA']),
    );
    expect(answers((actor) => can(actor, 'manage', { id: orgC }))).toEqual(
      expectedFor(['admin', 'adminAndBrmOfA']),
    );
  });

  it('terminateVendors: only a BRM for the organizations assigned to it, an admin as such for none', () => {
    expect(answers((actor) => can(actor, 'terminateVendors', { id: orgA }))).toEqual(
      expectedFor(['brmOfA', 'brmOfAandB', 'adminAndBrmOfA']),
    );
    expect(answers((actor) => can(actor, 'terminateVendors', { id: orgC }))).toEqual(expectedFor([]));
  });

  it('grants roles outside the vendor’s email domain: active admins only', () => {
    expect(answers(grantsOutsideDomain)).toEqual(expectedFor(['admin', 'adminAndBrmOfA']));
  });

  it('scopeOf: every organization for an admin, the assignments for a BRM, none for anyone else', () => {
    expect(compiled(scopeOf(actors.admin, 'i.organization_id'))).toEqual({ sql: 'true', parameters: [] });
    for (const actor of [
      actors.vendor,
      actors.employeeWithoutBrm,
      actors.disabledBrmOfA,
      actors.terminatedAdmin,
    ]) {
      expect(compiled(scopeOf(actor, 'i.organization_id'))).toEqual({ sql: 'false', parameters: [] });
    }
    expect(compiled(scopeOf(actors.brmOfA, 'i.organization_id'))).toEqual({
      sql: '"i"."organization_id" in (select b.organization_id from brm_assignments b where b.account_id = $1)',
      parameters: [actors.brmOfA.id],
    });
  });
});
