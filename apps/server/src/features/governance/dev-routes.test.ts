import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { auditActions } from '../../../test/support/world';
import { OffsetClock } from '../../platform/clock';
import { readClockOffset } from '../../store/settings';

const DAY = 86_400_000;

describe.each(testDatabaseKinds)('the standalone test clock on %s', (kind) => {
  let t: TestApp;
  let plain: TestApp;
  const clock = new OffsetClock();
  const post = (
    app: TestApp,
    url: string,
    body: unknown,
    extra: { remoteAddress?: string; header?: boolean } = {},
  ) =>
    app.app.inject({
      method: 'POST',
      url,
      payload: body as object,
      headers: extra.header === false ? {} : { 'x-pra-api-call': 'true' },
      ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
    });

  beforeAll(async () => {
    t = await createTestApp(kind, { TEST_CLOCK: 'true' }, { clock });
    plain = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
    await plain?.close();
  });

  it('moves the time every governance path reads, keeps the offset in the database, and audits it', async () => {
    const before = clock.now().getTime();
    const res = await post(t, '/dev/clock', { advance: 'P15D' });
    expect(res.statusCode).toBe(200);
    const moved = new Date(res.json<{ now: string }>().now).getTime();
    expect(moved - before).toBeGreaterThanOrEqual(15 * DAY);
    expect(moved - before).toBeLessThan(15 * DAY + 60_000);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(moved);
    expect(await readClockOffset(t.ctx.db)).toBe(clock.offsetMs);

    const set = await post(t, '/dev/clock', { set: '2031-03-01T09:00:00Z' });
    expect(set.json<{ now: string }>().now.slice(0, 16)).toBe('2031-03-01T09:00');
    const audits = await auditActions(t, 'clock.set');
    expect(audits).toHaveLength(2);
    expect(audits[1]!.details).toMatchObject({ to: '2031-03-01T09:00:00.000Z' });
  });

  it('refuses a body it cannot read with 400', async () => {
    for (const body of [
      { advance: 'P1Y' },
      { set: 'tomorrow' },
      { advance: 'P1D', set: '2031-01-01T00:00:00Z' },
      {},
    ]) {
      expect((await post(t, '/dev/clock', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('runs the sweeper now, audited', async () => {
    const res = await post(t, '/dev/governance/run', {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ran: true, at: expect.stringMatching(/^2031-03-01T09:0/) });
    expect(await auditActions(t, 'governance.run')).toHaveLength(1);
  });

  it('answers 404 to another machine, to a call without the web app header, and without TEST_CLOCK', async () => {
    for (const url of ['/dev/clock', '/dev/governance/run']) {
      expect((await post(t, url, { advance: 'P1D' }, { remoteAddress: '10.1.2.3' })).statusCode).toBe(404);
      expect((await post(t, url, { advance: 'P1D' }, { header: false })).statusCode).toBe(404);
      expect((await post(plain, url, { advance: 'P1D' })).statusCode).toBe(404);
    }
    // A signed-in client's call is no different: still loopback and header only.
    const client = new TestClient(plain.app);
    expect((await client.post('/dev/clock', { advance: 'P1D' })).statusCode).toBe(404);
  });
});
