import { describe, expect, it } from 'vitest';
import { isAdmin, isBrmOrAdmin, isEmployeeBrm, isVendor, type AccountKinds } from './account-kinds';

const account = (type: 'vendor' | 'employee', is_employee_brm = false, is_admin = false): AccountKinds => ({
  type,
  is_employee_brm,
  is_admin,
});

describe('account kinds', () => {
  it.each([
    ['a plain vendor', account('vendor'), { vendor: true, brm: false, admin: false, brmOrAdmin: false }],
    ['a plain employee', account('employee'), { vendor: false, brm: false, admin: false, brmOrAdmin: false }],
    [
      'an employee BRM',
      account('employee', true),
      { vendor: false, brm: true, admin: false, brmOrAdmin: true },
    ],
    [
      'an admin',
      account('employee', false, true),
      { vendor: false, brm: false, admin: true, brmOrAdmin: true },
    ],
    [
      'an admin who is a BRM',
      account('employee', true, true),
      { vendor: false, brm: true, admin: true, brmOrAdmin: true },
    ],
    // Flags on a vendor row count for nothing, wherever they are asked about.
    [
      'a vendor carrying both flags',
      account('vendor', true, true),
      { vendor: true, brm: false, admin: false, brmOrAdmin: false },
    ],
  ])('%s', (_name, a, expected) => {
    expect({
      vendor: isVendor(a),
      brm: isEmployeeBrm(a),
      admin: isAdmin(a),
      brmOrAdmin: isBrmOrAdmin(a),
    }).toEqual(expected);
  });
});
