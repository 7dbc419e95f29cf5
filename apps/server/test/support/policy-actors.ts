import type { Account } from '../../src/platform/db-schema';
import { actorOf, type Actor } from '../../src/policies/actor';

/** Organizations of the policy tests: A and B, C nobody in these tests manages. */
export const orgA = 'org-a';
export const orgB = 'org-b';
export const orgC = 'org-c';

type Row = Pick<Account, 'id' | 'status' | 'type' | 'is_employee_brm' | 'is_admin'>;
const employee = (id: string, flags: Partial<Row> = {}): Row => ({
  id,
  status: 'active',
  type: 'employee',
  is_employee_brm: false,
  is_admin: false,
  ...flags,
});

/** Every kind of actor the policies must tell apart, built from account rows as at run time. */
export const actors = {
  vendor: actorOf({ ...employee('vendor-1'), type: 'vendor' }, []),
  brmOfA: actorOf(employee('brm-a', { is_employee_brm: true }), [orgA]),
  brmOfB: actorOf(employee('brm-b', { is_employee_brm: true }), [orgB]),
  brmOfAandB: actorOf(employee('brm-ab', { is_employee_brm: true }), [orgA, orgB]),
  admin: actorOf(employee('admin', { is_admin: true }), []),
  /** An admin who is also the BRM of A (an admin as such terminates no one's vendors). */
  adminAndBrmOfA: actorOf(employee('admin-brm', { is_admin: true, is_employee_brm: true }), [orgA]),
  /** An employee without the BRM flag, its assignments of A left over: they count for nothing. */
  employeeWithoutBrm: actorOf(employee('employee'), [orgA]),
  disabledBrmOfA: actorOf(employee('brm-off', { is_employee_brm: true, status: 'disabled' }), [orgA]),
  terminatedAdmin: actorOf(employee('admin-gone', { is_admin: true, status: 'terminated' }), []),
} satisfies Record<string, Actor>;

export type ActorName = keyof typeof actors;
export const actorNames = Object.keys(actors) as ActorName[];

/** The actors of `names` are expected `true`, every other actor `false`. */
export function expectedFor(names: readonly ActorName[]): Record<ActorName, boolean> {
  return Object.fromEntries(actorNames.map((name) => [name, names.includes(name)])) as Record<
    ActorName,
    boolean
  >;
}

/** What a rule answers for each actor. */
export function answers(rule: (actor: Actor) => boolean): Record<ActorName, boolean> {
  return Object.fromEntries(actorNames.map((name) => [name, rule(actors[name])])) as Record<
    ActorName,
    boolean
  >;
}
