import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { spyOnQueries } from '../../test/support/query-spy';
import { createAccount } from '../../test/support/sign-in';
import { createTestApp, TEST_SECRET, type TestApp } from '../../test/support/test-app';
import { insertSession, type Session } from './session';
import { selectLiveSession } from '../store/session-lookup';

describe.each(testDatabaseKinds)('the per-request session lookup on %s', (kind) => {
  let t: TestApp;
  let accountId: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    accountId = await createAccount(t, { username: 'batchvendor' });
  });
  afterAll(async () => t?.close());

  async function sessionOf(id: string): Promise<Session> {
    const { session } = await insertSession(t.ctx.db, TEST_SECRET, {
      accountId: id,
      lifetimeMs: 60_000,
      clientAddress: '198.51.100.7',
      userAgent: 'test',
      data: {},
    });
    return session;
  }

  it('answers the lookups of one turn with one query, each with its own session', async () => {
    const adminId = await createAccount(t, { username: 'batchadmin', type: 'employee', isAdmin: true });
    const disabledId = await createAccount(t, { username: 'batchdisabled', status: 'disabled' });
    await t.ctx.db.insertInto('organizations').values({ name: 'Batch Org', is_active: true }).execute();
    const vendor = await sessionOf(accountId);
    const admin = await sessionOf(adminId);
    const disabled = await sessionOf(disabledId);
    const lookups = [admin, vendor, disabled, vendor, admin].map((s) => s.idHash).concat('unknownhash');
    const spy = spyOnQueries(kind);
    try {
      spy.mockClear();
      const rows = await Promise.all(
        lookups.map((idHash) => selectLiveSession(t.ctx.db, idHash, { organizations: true })),
      );
      expect(spy).toHaveBeenCalledTimes(1);
      expect(
        rows.map(
          (row) => row && [row.idHash, row.accountId, row.account?.username ?? null, row.organizations],
        ),
      ).toEqual([
        [admin.idHash, adminId, 'batchadmin', ['Batch Org']],
        [vendor.idHash, accountId, 'batchvendor', []],
        [disabled.idHash, disabledId, null, null],
        [vendor.idHash, accountId, 'batchvendor', []],
        [admin.idHash, adminId, 'batchadmin', ['Batch Org']],
        null,
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers the lookups of one turn together, each request with objects of its own', async () => {
    const { session } = await insertSession(t.ctx.db, TEST_SECRET, {
      accountId,
      lifetimeMs: 60_000,
      clientAddress: '198.51.100.7',
      userAgent: 'test',
      data: { saml: { nameID: 'batchvendor' } },
    });
    const [first, second, third] = await Promise.all([
      selectLiveSession(t.ctx.db, session.idHash, { organizations: true }),
      selectLiveSession(t.ctx.db, session.idHash, { organizations: true }),
      selectLiveSession(t.ctx.db, 'no-such-session', { organizations: true }),
    ]);
    expect(first?.account?.id).toBe(accountId);
    expect(second?.account?.id).toBe(accountId);
    expect(third).toBeNull();
    expect(second).toEqual(first);
    // What one request changes, the other does not see.
    expect(second!.data).not.toBe(first!.data);
    expect(second!.account).not.toBe(first!.account);
    expect(second!.organizations).not.toBe(first!.organizations);
    (first!.data.saml as Record<string, unknown>).nameID = 'changed';
    first!.organizations!.push('Changed Org');
    expect((second!.data.saml as Record<string, unknown>).nameID).toBe('batchvendor');
    expect(second!.organizations).toEqual([]);
  });

  it('refuses a malformed id hash without a query', async () => {
    const spy = spyOnQueries(kind);
    try {
      spy.mockClear();
      expect(await selectLiveSession(t.ctx.db, "x' or '1'='1", { organizations: false })).toBeNull();
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
