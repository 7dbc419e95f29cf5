import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createAccount } from '../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { inactivityClocks } from './dormancy';
import { factorsOfUsernames } from './webauthn';

// Manage Users' whole list decorates every row by username: for a BRM of 45,000 vendors the names
// passed one parameter each went past the protocol's 65,535 parameters and answered 500.
describe.each(testDatabaseKinds)('reads by many usernames on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await createAccount(t, { username: 'ManyNamesVendor' });
  });
  afterAll(async () => t?.close());

  it('takes 40,000 usernames in one statement and finds exactly the one that exists', async () => {
    const names = [...Array.from({ length: 40_000 }, (_, i) => `nobody${i}`), 'ManyNamesVendor'];
    const factors = await factorsOfUsernames(t.ctx.db, names, t.ctx.clock.now());
    expect(factors.map((row) => row.username)).toEqual(['ManyNamesVendor']);
    const clocks = await inactivityClocks(t.ctx.db, names);
    expect(clocks.every((row) => row.username === 'ManyNamesVendor')).toBe(true);
    // Exact: another case of the name is not it.
    expect(await factorsOfUsernames(t.ctx.db, ['manynamesvendor'], t.ctx.clock.now())).toEqual([]);
  });
});
