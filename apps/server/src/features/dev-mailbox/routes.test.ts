import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import type { AppContext } from '../../platform/app-context';
import { linkify } from './pages';
import { devMailboxRoutes } from './routes';

describe('dev mailbox in standalone mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.ctx.db
      .insertInto('outbox')
      .values([
        {
          recipient: 'old@acme.example',
          subject: 'Older',
          text_body: 'first',
          html_body: '',
          template: 't',
          created_at: new Date(Date.now() - 60_000),
        },
        {
          recipient: 'jane@acme.example',
          subject: 'Activate <now>',
          text_body: 'Open http://localhost:8080/activate-account?code=ABCD-EFGH-JKMN-PQRS\n<b>not bold</b>',
          html_body: '<script>x</script>',
          template: 'account-approved',
        },
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  it('lists the messages newest first as JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/mailbox/api/messages' });
    expect(res.statusCode).toBe(200);
    const messages =
      res.json<{ id: string; to: string; subject: string; text: string; createdAt: string }[]>();
    expect(messages.map((m) => m.to)).toEqual(['jane@acme.example', 'old@acme.example']);
    expect(messages[0]).toMatchObject({
      subject: 'Activate <now>',
      text: expect.stringContaining('ABCD-EFGH-JKMN-PQRS'),
    });
  });

  it('renders an accessible list page and a message page with the link clickable and text escaped', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toContain('text/html');
    expect(list.body).toContain('<html lang="en">');
    expect(list.body).toMatch(/<main[^>]*>/);
    expect(list.body).toContain('<h1');
    expect(list.body).toContain('Activate &lt;now&gt;');
    const id = (await t.app.inject({ method: 'GET', url: '/dev/mailbox/api/messages' })).json<
      { id: string }[]
    >()[0]!.id;
    const page = await t.app.inject({ method: 'GET', url: `/dev/mailbox/${id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="http://localhost:8080/activate-account?code=ABCD-EFGH-JKMN-PQRS">');
    expect(page.body).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(page.body).not.toContain('<script>x</script>');
  });

  it('answers 404 to an unknown or malformed message id', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/dev/mailbox/00000000-0000-4000-8000-000000000000' }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/dev/mailbox/nope' })).statusCode).toBe(404);
  });

  it('answers only clients on this machine, whatever X-Forwarded-For says', async () => {
    const get = (url: string, remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, remoteAddress, headers });
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await get('/dev/mailbox/api/messages', address)).statusCode).toBe(200);
    }
    const id = (await get('/dev/mailbox/api/messages', '127.0.0.1')).json<{ id: string }[]>()[0]!.id;
    for (const address of ['203.0.113.5', '10.0.0.2', '::ffff:192.168.1.4', '2001:db8::1', '128.0.0.1']) {
      for (const url of ['/dev/mailbox', '/dev/mailbox/api/messages', `/dev/mailbox/${id}`]) {
        const res = await get(url, address, { 'x-forwarded-for': '127.0.0.1' });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('ABCD-EFGH-JKMN-PQRS');
      }
    }
  });

  it('links only http(s) addresses', () => {
    expect(linkify('see javascript:alert(1) and https://a.example/x?y=1&z=2').value).toBe(
      'see javascript:alert(1) and <a href="https://a.example/x?y=1&amp;z=2">https://a.example/x?y=1&amp;z=2</a>',
    );
  });
});

describe('dev mailbox behind a trusted proxy', () => {
  it('still goes by the TCP peer, not the forwarded client address', async () => {
    const t = await createTestApp('pglite', { TRUST_PROXY: '10.0.0.0/8' });
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/dev/mailbox/api/messages',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('dev mailbox in production mode', () => {
  it('answers 404 everywhere, leaving nothing to the SPA fallback', async () => {
    const app = Fastify();
    const ctx = { config: { isStandalone: false, HOSPITAL_NAME: 'H' } } as unknown as AppContext;
    await app.register(devMailboxRoutes, ctx);
    try {
      for (const url of ['/dev/mailbox', '/dev/mailbox/api/messages', '/dev/mailbox/abc']) {
        expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
      }
    } finally {
      await app.close();
    }
  });
});
