import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { auditActions } from '../../../test/support/world';
import { newTotpSecret } from '../../identity/mfa/totp';

const PAIR = '/api/user/authenticator/pair';
const STATUS = '/api/authenticator/status';
const ANSWER = '/api/authenticator/answer';

describe.each(testDatabaseKinds)('authenticator on %s', (kind) => {
  let t: TestApp;
  let serial = 0;

  async function phone(): Promise<TestClient> {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    return client;
  }

  /** A signed-in vendor with a TOTP device; pairs a phone and returns its device key. */
  async function pairedVendor() {
    serial += 1;
    const username = `phoneuser${serial}`;
    const id = await createAccount(t, { username });
    await t.ctx.db
      .insertInto('mfa_devices')
      .values({
        account_id: id,
        nickname: 'Phone',
        secret_encrypted: t.ctx.encryptor.encrypt(newTotpSecret()),
        last_used_step: null,
        confirmed_at: sql<Date>`now()`,
      })
      .execute();
    const browser = await signInAs(t, username);
    const res = await browser.post(PAIR, { nickname: 'Work phone' });
    expect(res.statusCode).toBe(200);
    const { pairingUrl, qrDataUrl } = res.json<{ pairingUrl: string; qrDataUrl: string }>();
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const deviceKey = new URLSearchParams(new URL(pairingUrl).hash.slice(1)).get('key')!;
    return { id, username, browser, deviceKey };
  }

  async function addPush(accountId: string) {
    const row = await t.ctx.db
      .insertInto('push_challenges')
      .values({
        account_id: accountId,
        purpose: 'reset',
        client_address: '198.51.100.7',
        expires_at: sql<Date>`now() + interval '1 minute'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('pairs only for a signed-in account, audited, the key never stored in the clear', async () => {
    const anonymous = await phone();
    expect((await anonymous.post(PAIR, { nickname: 'x' })).statusCode).toBe(401);
    const v = await pairedVendor();
    const rows = await t.ctx.db
      .selectFrom('authenticators')
      .selectAll()
      .where('account_id', '=', v.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).not.toContain(v.deviceKey);
    expect((await auditActions(t, 'mfa.pair')).some((e) => e.actor_id === v.id)).toBe(true);
    expect(JSON.stringify(await auditActions(t, 'mfa.pair'))).not.toContain(v.deviceKey);
  });

  it('shows the phone its pending requests and current passcode, and takes its answer once', async () => {
    const v = await pairedVendor();
    const client = await phone();
    const empty = await client.post(STATUS, { deviceKey: v.deviceKey });
    expect(empty.json()).toMatchObject({ username: v.username, nickname: 'Work phone', requests: [] });
    expect(empty.json().passcode).toMatch(/^\d{6}$/);
    const id = await addPush(v.id);
    const status = await client.post(STATUS, { deviceKey: v.deviceKey });
    expect(status.json().requests).toEqual([
      { id, purpose: 'reset', clientAddress: '198.51.100.7', createdAt: expect.any(String) },
    ]);
    expect((await client.post(ANSWER, { deviceKey: v.deviceKey, id, approve: true })).json()).toEqual({
      success: true,
    });
    expect((await client.post(ANSWER, { deviceKey: v.deviceKey, id, approve: false })).statusCode).toBe(409);
    const row = await t.ctx.db
      .selectFrom('push_challenges')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row?.status).toBe('approved');
  });

  it("refuses unknown or replaced keys, and another account's requests", async () => {
    const a = await pairedVendor();
    const b = await pairedVendor();
    const client = await phone();
    expect((await client.post(STATUS, { deviceKey: 'x'.repeat(43) })).statusCode).toBe(401);
    const otherId = await addPush(b.id);
    expect(
      (await client.post(ANSWER, { deviceKey: a.deviceKey, id: otherId, approve: true })).statusCode,
    ).toBe(409);
    // Pairing again replaces the earlier phone.
    const again = await a.browser.post(PAIR, { nickname: 'New phone' });
    expect(again.statusCode).toBe(200);
    expect((await client.post(STATUS, { deviceKey: a.deviceKey })).statusCode).toBe(401);
  });
});
