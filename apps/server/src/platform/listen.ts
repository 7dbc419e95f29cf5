import type { Server } from 'node:http';

/** Starts `server` listening; rejects with the listen error (e.g. EADDRINUSE). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
