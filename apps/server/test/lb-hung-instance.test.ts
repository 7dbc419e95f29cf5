// One hung instance must not stall everyone: the shipped nginx configuration
// (deploy/nginx/pra-portal.conf) in front of two instances, one frozen with SIGSTOP in the middle
// of traffic. Within the detection time (the 5 s read timeout, plus a second) nginx routes around
// it; from then on every second has answers, and no idempotent request fails. (With the earlier
// configuration, max_fails=0 and nginx's default 60 s read timeout, every client hung behind the
// frozen instance: no answer at all for the whole freeze.)
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../src/platform/app-error';
import { nginxInstalled, shippedConfPath, startBehindNginx, type BehindNginx } from './support/nginx';
import type { Instance } from './support/server-process';

/** The configuration's read timeout (5 s) and a second for the retry on the other instance. */
const DETECTION_SECONDS = 6;
const FREEZE_SECONDS = 14;
const WORKERS = 8;
/** deploy/nginx/pra-portal.conf's max_conns: requests under way at once at each instance. */
const MAX_CONNS = Number(/^ *server \S+ .*max_conns=(\d+)/m.exec(readFileSync(shippedConfPath, 'utf8'))?.[1]);

describe.skipIf(!nginxInstalled || !process.env.TEST_DATABASE_URL)(
  'nginx in front of a hung instance',
  () => {
    let pair: BehindNginx;
    let a: Instance;
    let proxyPort: number;
    const agent = new Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: WORKERS });

    interface Answer {
      status: number;
      ms: number;
      retryAfter?: string;
      nosniff?: string;
      type?: string;
      body: string;
    }

    /** GET through nginx on `via`: the status (-1 for a failed connection), time, headers and body. */
    function request(path: string, via: Agent): Promise<Answer> {
      return new Promise((resolve) => {
        const sent = performance.now();
        const req = httpsRequest(
          { host: '127.0.0.1', servername: 'localhost', port: proxyPort, path, agent: via, timeout: 30_000 },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                ms: performance.now() - sent,
                retryAfter: res.headers['retry-after'],
                nosniff: res.headers['x-content-type-options']?.toString(),
                type: res.headers['content-type'],
                body,
              }),
            );
          },
        );
        req.on('timeout', () => req.destroy(new Error('client timeout')));
        req.on('error', () => resolve({ status: -1, ms: performance.now() - sent, body: '' }));
        req.end();
      });
    }
    const get = async (path: string) => (await request(path, agent)).status;

    beforeAll(async () => {
      // Load shedding off: on a machine busy with other tests (CI runs these beside the browser
      // journeys), the healthy instance taking all the traffic may shed some of it, which is its
      // own behaviour (load-shedding tests), not the balancer's routing that this test is about.
      pair = await startBehindNginx('lb-hung', {
        DEMO_DATA: 'false',
        SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
        SHED_MAX_POOL_WAITING: '0',
      });
      ({ a, proxyPort } = pair);
    }, 90_000);

    afterAll(async () => {
      agent.destroy();
      for (const instance of [pair?.a, pair?.b]) {
        if (!instance || instance.child.exitCode !== null) continue;
        instance.child.kill('SIGCONT');
        instance.child.kill('SIGKILL');
        await instance.exit;
      }
      await pair?.remove();
    }, 30_000);

    it(`answers every second after ${DETECTION_SECONDS} s, and every request, while one instance is frozen`, async () => {
      const answers: { at: number; status: number }[] = [];
      let stop = false;
      const worker = async () => {
        while (!stop) answers.push({ status: await get('/api/system/message'), at: Date.now() });
      };
      const workers = Array.from({ length: WORKERS }, worker);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const frozenAt = Date.now();
      a.child.kill('SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, FREEZE_SECONDS * 1_000));
      stop = true;
      a.child.kill('SIGCONT');
      await Promise.all(workers);

      const inSeconds = Array.from({ length: FREEZE_SECONDS }, (_, second) =>
        answers.filter(({ at }) => at >= frozenAt + second * 1_000 && at < frozenAt + (second + 1) * 1_000),
      );
      const perSecond = inSeconds.map((inSecond) => inSecond.filter(({ status }) => status === 200).length);
      const silentSeconds = perSecond
        .map((count, second) => ({ second, count }))
        .filter(({ second, count }) => second >= DETECTION_SECONDS && count === 0);
      // Each second's other answers too (a status, -1 for a failed connection), to say what happened.
      const others = inSeconds.map((inSecond) =>
        inSecond
          .filter(({ status }) => status !== 200)
          .map(({ status }) => status)
          .join('/'),
      );
      // nginx's own account of the upstreams (timeouts, servers taken out), to say why.
      const upstreamLog = () =>
        readFileSync(join(pair.dir, 'error.log'), 'utf8')
          .split('\n')
          .filter((line) => line.includes('upstream'))
          .slice(-12)
          .join('\n');
      expect(
        silentSeconds,
        `200s per second since the freeze: ${perSecond.join(', ')}; other answers: ${others.join(', ')}\n${upstreamLog()}`,
      ).toEqual([]);
      // Idempotent requests that met the frozen instance were tried again on the other one.
      const failed = answers.filter(({ status }) => status !== 200);
      expect(failed, `${JSON.stringify(failed.slice(0, 5))}\n${upstreamLog()}`).toEqual([]);
    }, 60_000);

    it('keeps the codes of activation and reset links out of its access log', async () => {
      await get('/activate-account?code=ACT-SECRET-1234&u=someone');
      await get('/forgot-password?code=RESET-SECRET-5678');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const log = readFileSync(join(pair.dir, 'access.log'), 'utf8');
      expect(log).toContain('GET /activate-account HTTP/1.1');
      expect(log).toContain('GET /forgot-password HTTP/1.1');
      expect(log).not.toContain('SECRET');
    });

    it(`sheds what no instance has room for: past ${MAX_CONNS} requests under way at each, nginx answers 503 at once`, async () => {
      // Both instances frozen: every request that reaches one stays under way until the read
      // timeout. Without max_conns every request waits for it (then 504); with it, those past
      // 2 x max_conns are answered by nginx itself, at once, as the portal sheds.
      const callers = 2 * MAX_CONNS + 64;
      // Every caller's connection is opened (TLS handshake and all) before the freeze and kept, so
      // that the burst itself is only requests: on a slow machine hundreds of handshakes take seconds.
      const burst = new Agent({
        keepAlive: true,
        rejectUnauthorized: false,
        maxSockets: callers,
        maxFreeSockets: callers,
      });
      const frozen = [pair.a, pair.b];
      const one = (path: string) => request(path, burst);
      const warm = await Promise.all(Array.from({ length: callers }, () => one('/healthz')));
      expect(warm.filter(({ status }) => status <= 0)).toEqual([]);
      for (const instance of frozen) instance.child.kill('SIGSTOP');
      let answers: Answer[];
      try {
        const pending = Array.from({ length: callers }, (_, i) => one(`/api/system/message?caller=${i}`));
        // Long enough for every caller to be connected and shed, short of the 5 s read timeout.
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        for (const instance of frozen) instance.child.kill('SIGCONT');
        answers = await Promise.all(pending);
      } finally {
        for (const instance of frozen) instance.child.kill('SIGCONT');
        burst.destroy();
      }
      const shed = answers.filter(({ status }) => status === 503);
      const counts = new Map<number, number>();
      for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
      const statuses = `statuses (-1: failed): ${JSON.stringify([...counts])}`;
      expect(shed.length, statuses).toBeGreaterThanOrEqual(callers - 2 * MAX_CONNS);
      for (const answer of shed) {
        expect(answer.ms, statuses).toBeLessThan(4_000);
        expect(answer.retryAfter).toBe('5');
        expect(answer.type).toBe('application/json');
        expect(answer.nosniff).toBe('nosniff');
        // The portal's own message: nginx's copy of it must not drift from the instances'.
        expect(JSON.parse(answer.body)).toEqual({ errors: [messages.unavailable] });
      }
    }, 60_000);
  },
);
