import { describe, expect, it } from 'vitest';
import { isAdmin, isBrmOrAdmin, isEmployeeBrm, isVendor, type AccountKinds } from './account-kinds';

const user = (type: 'vendor' | 'employee', isEmployeeBrm = false, isAdminFlag = false): AccountKinds => ({
  type,
  isEmployeeBrm,
  isAdmin: isAdminFlag,
});

describe('account kinds', () => {
  it.each([
    ['a vendor', user('vendor'), [true, false, false, false]],
    ['a plain employee', user('employee'), [false, false, false, false]],
    ['an employee BRM', user('employee', true), [false, true, false, true]],
    ['an admin', user('employee', false, true), [false, false, true, true]],
    ['an admin who is a BRM', user('employee', true, true), [false, true, true, true]],
    // As on the server, the flags count only on employee accounts.
    ['a vendor record carrying both flags', user('vendor', true, true), [true, false, false, false]],
  ])('%s: vendor, employee BRM, admin, BRM or admin', (_name, u, expected) => {
    expect([isVendor(u), isEmployeeBrm(u), isAdmin(u), isBrmOrAdmin(u)]).toEqual(expected);
  });
});
