import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, loggerOptions, registerRequestLog } from './logger';

/** A fastify app logging as the portal does into an array of parsed lines. */
async function appLoggingTo(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  const app = Fastify({
    logger: { ...(loggerOptions(level) as object), stream },
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
  });
  registerRequestLog(app);
  app.get('/api/thing', async () => ({ ok: true }));
  app.post('/api/noisy', async (request) => {
    request.log.info({ body: request.body }, 'careless line');
    return { ok: true };
  });
  app.get('/api/quiet', { logLevel: 'warn' }, async (request) => {
    request.log.info('not at this route');
    request.log.warn('at this route');
    return { level: request.log.level };
  });
  app.get('/api/nested', async (request) => {
    const level = request.log.level;
    request.log.child({ step: 'inner' }).info('nested line');
    return { level };
  });
  await app.ready();
  return { app, lines };
}

describe('request logging', () => {
  it('writes one line per request with what an operator needs and no headers or secrets', async () => {
    const { app, lines } = await appLoggingTo('info');
    await app.inject({
      method: 'GET',
      url: '/api/thing?code=ABCD-EFGH&x=1',
      headers: { cookie: 'pra_session=secret-session-id', 'user-agent': 'probe/1' },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      method: 'GET',
      url: '/api/thing?code=[redacted]&x=1',
      statusCode: 200,
      userAgent: 'probe/1',
    });
    expect(typeof lines[0]!.responseTime).toBe('number');
    expect(lines[0]!.reqId).toMatch(/^req-/);
    expect(JSON.stringify(lines)).not.toContain('secret-session-id');
    expect(JSON.stringify(lines)).not.toContain('ABCD-EFGH');
    await app.close();
  });

  it('still redacts secrets in every other line (the request line alone skips the paths)', async () => {
    const { app, lines } = await appLoggingTo('info');
    await app.inject({
      method: 'POST',
      url: '/api/noisy',
      payload: {
        password: 'Hunter-2-Secret',
        otp: '123456',
        note: 'kept',
        token: 'pra_secret-service-token',
        headers: { authorization: 'Bearer pra_secret-bearer' },
      },
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      msg: 'careless line',
      body: { password: '[redacted]', otp: '[redacted]' },
    });
    expect(lines[0]!.reqId).toBe(lines[1]!.reqId);
    expect(JSON.stringify(lines)).not.toContain('Hunter-2-Secret');
    expect(JSON.stringify(lines)).not.toContain('123456');
    expect(JSON.stringify(lines)).not.toContain('pra_secret');
    expect(JSON.stringify(lines)).toContain('kept');
    await app.close();
  });

  it("keeps a database error's parameters and detail out of the log", async () => {
    const { app, lines } = await appLoggingTo('info');
    const error = Object.assign(new Error('could not extend file'), {
      query: 'insert into codes (hash) values ($1)',
      params: ['code-hash-SECRET'],
      detail: 'Key (email)=(someone-SECRET@acme.example) already exists.',
    });
    app.log.error({ err: error }, 'unexpected error');
    expect(JSON.stringify(lines)).not.toContain('SECRET');
    expect(lines[0]).toMatchObject({ err: { params: '[redacted]', detail: '[redacted]' } });
    await app.close();
  });

  it('writes nothing per request above the info level', async () => {
    const { app, lines } = await appLoggingTo('warn');
    await app.inject({ method: 'GET', url: '/api/thing' });
    expect(lines).toHaveLength(0);
    await app.close();
  });

  it("request.log is made on first use, with the request id and the route's level", async () => {
    const { app, lines } = await appLoggingTo('info');
    const quiet = await app.inject({ method: 'GET', url: '/api/quiet' });
    expect(quiet.json()).toEqual({ level: 'warn' });
    expect(lines.map((l) => l.msg)).toEqual(['at this route', 'request completed']);
    expect(lines[0]!.reqId).toBe(lines[1]!.reqId);
    const nested = await app.inject({ method: 'GET', url: '/api/nested' });
    expect(nested.json()).toEqual({ level: 'info' });
    expect(lines[2]).toMatchObject({ msg: 'nested line', step: 'inner' });
    expect(lines[2]!.reqId).toBe(lines[3]!.reqId);
    expect(lines[3]).toMatchObject({ msg: 'request completed', url: '/api/nested' });
    await app.close();
  });
});

describe('standard output', () => {
  it('is one asynchronous destination per process, shared by every logger', () => {
    const first = (loggerOptions('info') as { stream: { sync?: boolean; fd?: number } }).stream;
    const second = (loggerOptions('warn') as { stream: unknown }).stream;
    expect(first).toBe(second);
    expect(first.fd).toBe(1);
    expect(first.sync).toBe(false);
  });
});
