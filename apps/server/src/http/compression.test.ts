import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { adminApi, api } from '@pra/contracts/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, signInAs } from '../../test/support/sign-in';
import { createTestApp, type TestClient, type TestApp } from '../../test/support/test-app';
import { COMPRESS_MIN_BYTES } from './compression';
import { chooseEncoding } from '../platform/content-encoding';

describe('choosing the encoding', () => {
  it('prefers brotli, then gzip, as Accept-Encoding allows', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0.2, gzip;q=0.8')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('gzip;q=0, *;q=0')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe('compressed API answers', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await createAccount(t, { username: 'zipadmin', type: 'employee', isAdmin: true });
    for (let n = 0; n < 30; n++) await createAccount(t, { username: `zipvendor${n}` });
    admin = await signInAs(t, 'zipadmin');
  });
  afterAll(async () => t?.close());

  it('sends a large JSON answer compressed as asked, the same JSON once decoded', async () => {
    const plain = await admin.get(api.managedUsers, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(plain.headers.vary).toContain('accept-encoding');

    const br = await admin.get(api.managedUsers, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await admin.get(api.managedUsers, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves small answers, the CSRF token and the streamed CSV export as they are', async () => {
    const small = await admin.get(`${api.managedUsers}?size=1`, { 'accept-encoding': 'br' });
    expect(small.rawPayload.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();

    const csrf = await admin.get(api.csrf, { 'accept-encoding': 'br' });
    expect(csrf.headers['content-encoding']).toBeUndefined();
    expect(csrf.json()).toHaveProperty('csrfToken');

    const csv = await admin.get(adminApi.auditExport, { 'accept-encoding': 'br, gzip' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-encoding']).toBeUndefined();
    expect(csv.body.split('\r\n').length).toBeGreaterThan(1);
  });
});
