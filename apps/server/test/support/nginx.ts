// nginx as the TLS reverse proxy in front of portal instances, run unprivileged in a temp dir.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NGINX = '/usr/sbin/nginx';
export const nginxInstalled = existsSync(NGINX);

/**
 * The proxy configuration docs/OPERATIONS.md shows, with this run's paths and ports. The parts
 * that matter: X-Forwarded-For is *replaced* by the address nginx saw (a client cannot pick its
 * own), X-Forwarded-Proto says https, and a request that fails to reach an instance (refused, or
 * answered 502/503 while it shuts down) is retried on the other, for idempotent methods only.
 * `max_fails=0`: with http_503 in proxy_next_upstream, nginx would otherwise count the portal's
 * own 503 answers (maintenance, database down) as the instance failing and take both out.
 */
export function nginxConf(dir: string, listenPort: number, upstreamPorts: number[]): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;

  upstream portal {
${upstreamPorts.map((port) => `    server 127.0.0.1:${port} max_fails=0;`).join('\n')}
    keepalive 16;
  }

  server {
    listen 127.0.0.1:${listenPort} ssl;
    server_name localhost;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    client_max_body_size 1m;

    location / {
      proxy_pass http://portal;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 2s;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 2;
    }
  }
}
`;
}

/** A self-signed certificate for localhost, made with openssl for this run only. */
export function makeCertificate(dir: string): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
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
export function startNginx(dir: string, conf: string): { child: ChildProcess; output: string[] } {
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'];
  execFileSync(NGINX, [...args, '-t'], { stdio: 'pipe' });
  const child = spawn(NGINX, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}
