// nginx as the TLS reverse proxy in front of portal instances, run unprivileged in a temp dir.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from './databases';
import { buildServer, freePort, startServer, waitUntilUp, type Instance } from './server-process';

export const NGINX = '/usr/sbin/nginx';
export const nginxInstalled = existsSync(NGINX);

/** The nginx configuration the project ships (docs/OPERATIONS.md installs it). */
export const shippedConfPath = fileURLToPath(
  new URL('../../../../deploy/nginx/pra-portal.conf', import.meta.url),
);

/** Replaces `from` by `to` in `text`, insisting that it is there (the shipped file's shape). */
function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from))
    throw new Error(`deploy/nginx/pra-portal.conf no longer contains ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

export interface NginxConfOptions {
  /**
   * false: plain HTTP on the port, the TLS lines left out (a benchmark measuring the proxy's load
   * shedding, whose client should not spend the machine on handshakes). Default: TLS, as shipped.
   */
  tls?: boolean;
  /** false: the upstream servers' max_conns left out (no load shedding at the proxy). */
  maxConns?: boolean;
  /** The events block's worker_connections (each proxied request takes two). */
  workerConnections?: number;
}

/**
 * The shipped configuration (deploy/nginx/pra-portal.conf), with this run's addresses, ports,
 * certificate and log paths put where an operator puts theirs, inside a minimal nginx.conf run
 * unprivileged in `dir`. The upstream gets one line per instance.
 */
export function nginxConf(
  dir: string,
  listenPort: number,
  upstreamPorts: number[],
  { tls = true, maxConns = true, workerConnections = 4096 }: NginxConfOptions = {},
): string {
  let shipped = readFileSync(shippedConfPath, 'utf8');
  const upstreamLine = /^ {2}server 10\.0\.0\.11:8080 (.*)$/m.exec(shipped);
  if (!upstreamLine) throw new Error('deploy/nginx/pra-portal.conf: no upstream line for 10.0.0.11:8080');
  let parameters = upstreamLine[1]!;
  if (!maxConns) parameters = replaceOnce(parameters, ' max_conns=256', '');
  shipped = replaceOnce(shipped, `${upstreamLine[0]}\n`, '');
  shipped = replaceOnce(
    shipped,
    /^ {2}server 10\.0\.0\.12:8080 .*$/m.exec(shipped)?.[0] ?? '(missing 10.0.0.12 line)',
    upstreamPorts.map((port) => `  server 127.0.0.1:${port} ${parameters}`).join('\n'),
  );
  if (tls) {
    shipped = replaceOnce(shipped, 'listen 443 ssl;', `listen 127.0.0.1:${listenPort} ssl;`);
    shipped = replaceOnce(shipped, '/etc/nginx/tls/pra.crt', `${dir}/cert.pem`);
    shipped = replaceOnce(shipped, '/etc/nginx/tls/pra.key', `${dir}/key.pem`);
  } else {
    shipped = replaceOnce(shipped, 'listen 443 ssl;', `listen 127.0.0.1:${listenPort};`);
    for (const line of shipped.split('\n').filter((l) => /^ {2}ssl_/.test(l)))
      shipped = replaceOnce(shipped, `${line}\n`, '');
  }
  shipped = replaceOnce(shipped, 'server_name pra.hospital.example;', 'server_name localhost;');
  shipped = replaceOnce(shipped, '/var/log/nginx/pra-portal.access.log', `${dir}/access.log`);
  while (shipped.includes('/var/log/nginx/pra-portal.error.log'))
    shipped = replaceOnce(shipped, '/var/log/nginx/pra-portal.error.log', `${dir}/error.log`);
  return `worker_processes 1;
worker_rlimit_nofile ${2 * workerConnections + 64};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections ${workerConnections}; }
http {
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
${shipped}
}
`;
}

/**
 * A self-signed certificate for localhost (RSA 2048, valid `days`), made with openssl for this run
 * only: `dir`/key.pem and `dir`/cert.pem.
 */
export function makeCertificate(dir: string, days = 1): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      String(days),
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
    ],
    { stdio: 'pipe' },
  );
}

/** Starts nginx in the foreground on `dir`'s configuration. */
export function startNginx(
  dir: string,
  conf: string,
  prefix: string[] = [],
): { child: ChildProcess; output: string[] } {
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'];
  execFileSync(NGINX, [...args, '-t'], { stdio: 'pipe' });
  const [command, ...rest] = [...prefix, NGINX, ...args];
  const child = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

/** GET over https from the proxy, accepting its self-signed certificate: the status, or 0. */
export function proxyStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = httpsGet(
      { host: '127.0.0.1', servername: 'localhost', port, path, rejectUnauthorized: false },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve(0));
  });
}

export interface BehindNginx {
  database: Awaited<ReturnType<typeof createTestDatabase>>;
  dir: string;
  a: Instance;
  b: Instance;
  proxy: ReturnType<typeof startNginx>;
  proxyPort: number;
  /** Stops nginx, removes the folder and drops the database (stop the instances first). */
  remove(): Promise<void>;
}

/**
 * Two instances on a fresh PostgreSQL database behind the shipped nginx configuration with a
 * self-signed certificate: A first, alone (it migrates and writes the shared keys and secrets),
 * then B (with `envB` on top); resolves once the proxy answers /healthz. The instances get
 * standalone mode on that database, trust nginx, and the proxy's https address as PUBLIC_URL.
 */
export async function startBehindNginx(
  name: string,
  env: Record<string, string>,
  envB: Record<string, string> = {},
): Promise<BehindNginx> {
  buildServer();
  const database = await createTestDatabase('postgres');
  const dir = mkdtempSync(join(tmpdir(), `pra-${name}-`));
  makeCertificate(dir);
  const [portA, portB, proxyPort] = [await freePort(), await freePort(), await freePort()];
  const common = {
    PRA_MODE: 'standalone',
    DATABASE_URL: database.url ?? '',
    DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `https://localhost:${proxyPort}`,
    TRUST_PROXY: '127.0.0.1',
    METRICS_PORT: 'off',
    ...env,
  };
  const a = startServer('A', portA, common);
  await waitUntilUp(a);
  const b = startServer('B', portB, { ...common, ...envB });
  await waitUntilUp(b);
  const proxy = startNginx(dir, nginxConf(dir, proxyPort, [portA, portB]));
  for (let i = 0; i < 50 && (await proxyStatus(proxyPort, '/healthz')) !== 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    database,
    dir,
    a,
    b,
    proxy,
    proxyPort,
    async remove() {
      proxy.child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
      await database.close();
    },
  };
}
