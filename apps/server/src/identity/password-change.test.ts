import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createAccount, signInAs, TEST_PASSWORD } from '../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { outbox } from '../../test/support/world';
import { AppError } from '../platform/app-error';
import { findAccountById } from '../store/accounts';
import { PASSWORD_REUSED_MESSAGE, preparePassword, storePassword } from './password-change';
import { verifyPassword } from './passwords';
import { sendResetLink } from './reset-link';

describe.each(testDatabaseKinds)('password change and reset link on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  async function change(accountId: string, password: string, keepSessionIdHash?: string) {
    const account = (await findAccountById(t.ctx.db, accountId))!;
    const passwordHash = await preparePassword(t.ctx, account, password);
    return t.ctx.db.transaction().execute((tx) =>
      storePassword(tx, t.ctx, {
        account,
        passwordHash,
        keepSessionIdHash,
        action: 'password.change',
        actor: { id: account.id, username: account.username },
        clientAddress: '127.0.0.1',
      }),
    );
  }
  async function refusal(accountId: string, password: string): Promise<string[]> {
    const account = (await findAccountById(t.ctx.db, accountId))!;
    const error = await preparePassword(t.ctx, account, password).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).list ?? [(error as AppError).message];
  }

  it('refuses policy failures and the current password, then each of the last five', async () => {
    const id = await createAccount(t, { username: 'historian' });
    expect(await refusal(id, 'short')).toContain('Min length: 12');
    expect(await refusal(id, TEST_PASSWORD)).toEqual([PASSWORD_REUSED_MESSAGE]);
    const used = ['Amber-Falcon-71', 'Brisk-Otter-82', 'Cedar-Lynx-93', 'Dusky-Heron-14', 'Ember-Moose-25'];
    for (const p of used) expect(await change(id, p)).toBe(true);
    for (const p of used) expect(await refusal(id, p)).toEqual([PASSWORD_REUSED_MESSAGE]);
    // The first password fell out of the five kept, so it may come back.
    expect(await change(id, TEST_PASSWORD)).toBe(true);
    const kept = await t.ctx.db
      .selectFrom('password_history')
      .select('id')
      .where('account_id', '=', id)
      .execute();
    expect(kept).toHaveLength(5);
    const account = (await findAccountById(t.ctx.db, id))!;
    expect(await verifyPassword(account.password_hash, TEST_PASSWORD)).toBe(true);
  });

  it('ends the other sessions and the reset codes, keeps the given session, mails the owner', async () => {
    const id = await createAccount(t, { username: 'keeper' });
    const kept = await signInAs(t, 'keeper');
    const other = await signInAs(t, 'keeper');
    const keptHash = (
      await t.ctx.db
        .selectFrom('sessions')
        .select('id_hash')
        .where('account_id', '=', id)
        .orderBy('created_at')
        .executeTakeFirstOrThrow()
    ).id_hash;
    const account = (await findAccountById(t.ctx.db, id))!;
    await t.ctx.db.transaction().execute((tx) =>
      sendResetLink(tx, t.ctx, {
        account,
        actor: null,
        clientAddress: '127.0.0.1',
        action: 'password.reset-link',
      }),
    );
    const link = (await outbox(t, account.email)).find((m) => m.template === 'password-reset-link');
    expect(link?.text_body).toMatch(/\/forgot-password\?code=[A-Z2-9-]{19}/);
    expect(await change(id, 'Fresh-Walrus-58', keptHash)).toBe(true);
    const sessions = await t.ctx.db
      .selectFrom('sessions')
      .select(['id_hash', 'revoked_at'])
      .where('account_id', '=', id)
      .execute();
    expect(sessions.filter((s) => s.revoked_at === null).map((s) => s.id_hash)).toEqual([keptHash]);
    const codes = await t.ctx.db.selectFrom('codes').select('used_at').where('account_id', '=', id).execute();
    expect(codes.every((c) => c.used_at !== null)).toBe(true);
    expect((await outbox(t, account.email)).map((m) => m.template)).toContain('password-changed');
    expect((await kept.get('/api/user')).statusCode).toBe(200);
    expect((await other.get('/api/user')).statusCode).toBe(401);
  });

  it('changes nothing for an account that is no longer active', async () => {
    const id = await createAccount(t, { username: 'gonevendor' });
    await sql`update accounts set status = 'disabled' where id = ${id}`.execute(t.ctx.db);
    expect(await change(id, 'Fresh-Walrus-58')).toBe(false);
    const account = (await findAccountById(t.ctx.db, id))!;
    expect(await verifyPassword(account.password_hash, TEST_PASSWORD)).toBe(true);
  });
});
