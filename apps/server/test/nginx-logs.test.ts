// The shipped nginx configuration (deploy/nginx/pra-portal.conf) keeps the codes of activation and
// password-reset links out of its logs even when the instances fail: the access log writes no
// query string, and nginx's error log (which writes a failed request's whole request line) is
// not given those two pages' failures. No portal runs here: every instance is a closed port.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificate, nginxConf, nginxInstalled, proxyStatus, startNginx } from './support/nginx';
import { freePort } from './support/server-process';

describe.skipIf(!nginxInstalled)('nginx logs with every instance down', () => {
  let dir: string;
  let proxy: ReturnType<typeof startNginx> | undefined;
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pra-nginx-logs-'));
    makeCertificate(dir);
    port = await freePort();
    proxy = startNginx(dir, nginxConf(dir, port, [await freePort(), await freePort()]));
    for (let i = 0; i < 50 && (await proxyStatus(port, '/healthz')) === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(() => {
    proxy?.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('log no activation or reset code, in the access log or the error log', async () => {
    // A request tries both instances (refused: 502). Three failures take both out for
    // fail_timeout; nginx then answers by itself, 503 (no instance to try): both kinds are logged.
    // Another page's failure is logged with its request line: the error log is on and written.
    expect([502, 503]).toContain(await proxyStatus(port, '/activate-account?code=ACT-SECRET-1234&u=someone'));
    expect([502, 503]).toContain(await proxyStatus(port, '/forgot-password?code=RESET-SECRET-5678'));
    expect([502, 503]).toContain(await proxyStatus(port, '/welcome?shown=VISIBLE-IN-ERROR-LOG'));
    expect(await proxyStatus(port, '/activate-account?code=ACT-SECRET-4321&u=someone')).toBe(503);
    expect(await proxyStatus(port, '/forgot-password?code=RESET-SECRET-8765')).toBe(503);
    expect(await proxyStatus(port, '/welcome?shown=NO-INSTANCE-IN-ERROR-LOG')).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const access = readFileSync(join(dir, 'access.log'), 'utf8');
    const errors = readFileSync(join(dir, 'error.log'), 'utf8');
    expect(access).toMatch(/"GET \/activate-account HTTP\/1.1" 50[23]/);
    expect(access).toMatch(/"GET \/forgot-password HTTP\/1.1" 50[23]/);
    expect(access).toContain('"GET /activate-account HTTP/1.1" 503');
    expect(access).toContain('"GET /forgot-password HTTP/1.1" 503');
    expect(errors).toContain('request: "GET /welcome?shown=VISIBLE-IN-ERROR-LOG HTTP/1.1"');
    expect(errors).toMatch(/no live upstreams.*request: "GET \/welcome\?shown=NO-INSTANCE-IN-ERROR-LOG/);
    expect(access + errors).not.toContain('SECRET');
  });
});
