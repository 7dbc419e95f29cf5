import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from './listen';
import { renderMetrics } from './metrics';

/**
 * The Prometheus scrape endpoint on its own listener (METRICS_PORT), never on the public port:
 * the numbers describe the hospital's traffic and are for its monitoring network only.
 */
export async function startMetricsListener(
  port: number,
  host: string,
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed\n'),
    );
  });
  await listen(server, port, host);
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
