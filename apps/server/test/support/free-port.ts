import { createServer } from 'node:net';

/** A TCP port nothing listens on right now, chosen by the kernel (never a fixed one). The tests'
 * and the bench's only implementation: server-process.ts, smtp.ts and bench/ import it from here. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
