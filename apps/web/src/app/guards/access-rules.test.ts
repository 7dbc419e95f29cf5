import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@pra/contracts';
import { BRM_NOTICE, decideAccess, type AccessRule } from './access-rules';

type TestUser = Pick<CurrentUser, 'type' | 'isEmployeeBrm' | 'isAdmin' | 'iiqAvailable' | 'mustAcceptAup'>;

const vendor: TestUser = { type: 'vendor', isEmployeeBrm: false, isAdmin: false, iiqAvailable: true };
const brm = { ...vendor, type: 'employee' as const, isEmployeeBrm: true };
const admin = { ...vendor, type: 'employee' as const, isAdmin: true };
const employee = { ...vendor, type: 'employee' as const };

const signedIn = (user: TestUser | undefined) => ({ isAuthenticated: true, user });
const anonymous = { isAuthenticated: false, user: undefined };
const notice = { kind: 'notice', message: BRM_NOTICE };
const toWelcome = { kind: 'redirect', to: '/welcome' };
const allow = { kind: 'allow' };

describe('decideAccess', () => {
  it.each<AccessRule>(['login', 'vendor', 'brm', 'employeeBrm', 'admin'])(
    'sends anonymous visitors of a %s route to the login',
    (rule) => {
      expect(decideAccess(rule, anonymous)).toEqual({ kind: 'login' });
    },
  );

  it('sends a vendor whose policy acceptance is overdue to /attest from every other route', () => {
    const overdue = { ...vendor, mustAcceptAup: true };
    for (const rule of ['login', 'registration', 'vendor', 'brm', 'employeeBrm', 'admin'] as const) {
      expect(decideAccess(rule, signedIn(overdue))).toEqual({ kind: 'redirect', to: '/attest' });
    }
    expect(decideAccess('attest', signedIn(overdue))).toEqual(allow);
    expect(decideAccess('attest', signedIn(vendor))).toEqual(allow);
    expect(decideAccess('attest', signedIn(brm))).toEqual(toWelcome);
    expect(decideAccess('attest', signedIn(admin))).toEqual(toWelcome);
  });

  it('lets anonymous visitors register', () => {
    expect(decideAccess('registration', anonymous)).toEqual(allow);
  });

  it('lets any signed-in person in to login-only routes, even before the user record loads', () => {
    expect(decideAccess('login', signedIn(undefined))).toEqual(allow);
  });

  it('waits for the user record on role-based routes', () => {
    expect(decideAccess('brm', signedIn(undefined))).toEqual({ kind: 'wait' });
    expect(decideAccess('registration', signedIn(undefined))).toEqual({ kind: 'wait' });
  });

  it('allows vendors on vendor routes and sends employees, BRMs and admins to welcome', () => {
    expect(decideAccess('vendor', signedIn(vendor))).toEqual(allow);
    expect(decideAccess('vendor', signedIn(employee))).toEqual(toWelcome);
    expect(decideAccess('vendor', signedIn(brm))).toEqual(toWelcome);
    expect(decideAccess('vendor', signedIn(admin))).toEqual(toWelcome);
  });

  it('allows BRMs and admins on BRM routes and shows others the notice', () => {
    expect(decideAccess('brm', signedIn(brm))).toEqual(allow);
    expect(decideAccess('brm', signedIn(admin))).toEqual(allow);
    expect(decideAccess('brm', signedIn(vendor))).toEqual(notice);
    expect(decideAccess('brm', signedIn(employee))).toEqual(notice);
  });

  it('allows only employee BRMs to terminate vendors', () => {
    expect(decideAccess('employeeBrm', signedIn(brm))).toEqual(allow);
    expect(decideAccess('employeeBrm', signedIn(admin))).toEqual(notice);
    expect(decideAccess('employeeBrm', signedIn(vendor))).toEqual(notice);
  });

  it('sends signed-in people to welcome from account management while IIQ is unavailable', () => {
    const down = (user: TestUser) => signedIn({ ...user, iiqAvailable: false });
    expect(decideAccess('vendor', down(vendor))).toEqual(toWelcome);
    expect(decideAccess('brm', down(brm))).toEqual(toWelcome);
    expect(decideAccess('employeeBrm', down(brm))).toEqual(toWelcome);
    expect(decideAccess('registration', down(admin))).toEqual(toWelcome);
    expect(decideAccess('login', down(vendor))).toEqual(allow);
  });

  it('lets signed-in people with IIQ available reach registration', () => {
    expect(decideAccess('registration', signedIn(brm))).toEqual(allow);
  });

  it('lets only admins into Administration, also while the identity service is in maintenance', () => {
    expect(decideAccess('admin', signedIn(admin))).toEqual(allow);
    expect(decideAccess('admin', signedIn({ ...admin, iiqAvailable: false }))).toEqual(allow);
    for (const user of [vendor, brm, employee, { ...vendor, isAdmin: true }]) {
      expect(decideAccess('admin', signedIn(user))).toEqual(toWelcome);
    }
  });
});
