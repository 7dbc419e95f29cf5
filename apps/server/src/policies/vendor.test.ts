import { describe, expect, it } from 'vitest';
import type { AccountStatus } from '../platform/db-schema';
import { actors, answers, expectedFor, orgA, orgB, orgC } from '../../test/support/policy-actors';
import { compiled } from '../../test/support/policy-sql';
import { can, resetsActivationCodes, scopeOf, type VendorAction } from './vendor';

const holding = (organizationIds: string[], status: AccountStatus = 'active') => ({
  status,
  organizationIds,
});
const everyAction: VendorAction[] = ['manage', 'disable', 'resetActivationCode', 'terminate'];

describe('vendor policy', () => {
  it('manage: an admin every vendor, a BRM one holding a role of an organization it manages', () => {
    expect(answers((actor) => can(actor, 'manage', holding([orgA])))).toEqual(
      expectedFor(['brmOfA', 'brmOfAandB', 'admin', 'adminAndBrmOfA']),
    );
    expect(answers((actor) => can(actor, 'manage', holding([orgB, orgC])))).toEqual(
      expectedFor(['brmOfB', 'brmOfAandB', 'admin', 'adminAndBrmOfA']),
    );
    expect(answers((actor) => can(actor, 'manage', holding([])))).toEqual(
      expectedFor(['admin', 'adminAndBrmOfA']),
    );
  });

  it('a vendor pending activation or disabled is managed as an active one', () => {
    for (const status of ['pendingActivation', 'disabled'] as const) {
      expect(answers((actor) => can(actor, 'manage', holding([orgA], status)))).toEqual(
        expectedFor(['brmOfA', 'brmOfAandB', 'admin', 'adminAndBrmOfA']),
      );
    }
  });

  it('disable: a BRM only a vendor all of whose organizations it manages', () => {
    expect(answers((actor) => can(actor, 'disable', holding([orgA, orgB])))).toEqual(
      expectedFor(['brmOfAandB', 'admin', 'adminAndBrmOfA']),
    );
    expect(answers((actor) => can(actor, 'disable', holding([orgA])))).toEqual(
      expectedFor(['brmOfA', 'brmOfAandB', 'admin', 'adminAndBrmOfA']),
    );
  });

  it('resetActivationCode: admins only, as resetsActivationCodes says before any look-up', () => {
    expect(
      answers((actor) => can(actor, 'resetActivationCode', holding([orgA], 'pendingActivation'))),
    ).toEqual(expectedFor(['admin', 'adminAndBrmOfA']));
    expect(answers(resetsActivationCodes)).toEqual(expectedFor(['admin', 'adminAndBrmOfA']));
  });

  it('terminate: a BRM a vendor holding a role of an organization assigned to it, an admin as such none', () => {
    expect(answers((actor) => can(actor, 'terminate', holding([orgA, orgC])))).toEqual(
      expectedFor(['brmOfA', 'brmOfAandB', 'adminAndBrmOfA']),
    );
    expect(answers((actor) => can(actor, 'terminate', holding([orgC])))).toEqual(expectedFor([]));
  });

  it('a terminated vendor is no one’s to act on', () => {
    for (const action of everyAction) {
      expect(answers((actor) => can(actor, action, holding([orgA], 'terminated')))).toEqual(expectedFor([]));
    }
  });

  it('scopeOf: non-terminated vendors, all for an admin, a BRM’s by their roles, none for others', () => {
    expect(compiled(scopeOf(actors.admin, 'a')).sql).toBe(
      `("a"."type" = 'vendor' and "a"."status" <> 'terminated')`,
    );
    expect(compiled(scopeOf(actors.employeeWithoutBrm, 'a')).sql).toBe('false');
    expect(compiled(scopeOf(actors.brmOfA, 'a'))).toEqual({
      sql: `("a"."type" = 'vendor' and "a"."status" <> 'terminated' and "a"."id" in (select g.account_id from role_grants g where "g"."organization_id" in (select b.organization_id from brm_assignments b where b.account_id = $1)))`,
      parameters: [actors.brmOfA.id],
    });
  });
});
