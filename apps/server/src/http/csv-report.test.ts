import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ExportStopped } from '../platform/export-workers';
import { logCapture } from '../../test/support/log-capture';
import { sendChunks } from './csv-report';

// A download whose status is sent cannot answer an error any more: it is cut, and the log must
// say so (fastify's own line for it is off with request logging, app.ts), in words safe to log.

async function download(chunks: () => AsyncGenerator<string>) {
  const logs = logCapture();
  const app = Fastify({ logger: { level: 'info', stream: logs.stream }, disableRequestLogging: true });
  app.get('/file.csv', (_request, reply) => sendChunks(reply, 'file.csv', chunks()));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const { port } = app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/file.csv`);
    const body = await res.text().then(
      (text) => ({ text, cut: false }),
      () => ({ text: null, cut: true }),
    );
    return { status: res.status, ...body, warnings: logs.entries().filter((entry) => entry.level === 40) };
  } finally {
    await app.close();
  }
}

describe('a streamed download', () => {
  it('that ends normally is whole and logs nothing', async () => {
    const result = await download(async function* () {
      yield 'a,b\n';
      yield '1,2\n';
    });
    expect(result).toEqual({ status: 200, text: 'a,b\n1,2\n', cut: false, warnings: [] });
  });

  it('cut by the database is unfinished for the client and one warning with the code, not pg’s message', async () => {
    const result = await download(async function* () {
      yield 'a,b\n';
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw Object.assign(new Error('terminating connection due to administrator command: secret detail'), {
        code: '57P01',
      });
    });
    expect(result.status).toBe(200);
    expect(result.cut).toBe(true);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({
      msg: 'download cut short',
      file: 'file.csv',
      reason: '57P01',
    });
    expect(JSON.stringify(result.warnings)).not.toContain('secret detail');
  });

  it('cut by the portal’s stop says so', async () => {
    const result = await download(async function* () {
      yield 'a,b\n';
      throw new ExportStopped();
    });
    expect(result.cut).toBe(true);
    expect(result.warnings).toMatchObject([{ msg: 'download cut short', reason: 'the portal is stopping' }]);
  });

  it('cut by any other error names no message', async () => {
    const result = await download(async function* () {
      yield 'a,b\n';
      throw new Error('row 17: value "4111 1111 1111 1111"');
    });
    expect(result.cut).toBe(true);
    expect(result.warnings).toMatchObject([{ msg: 'download cut short', reason: 'error while reading' }]);
    expect(JSON.stringify(result.warnings)).not.toContain('4111');
  });
});
