import type { Server } from 'node:http';
import { ConfigError } from '../config';

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

/** Why a listen failed, in an operator's words. */
const reasons: Record<string, string> = {
  EADDRINUSE: 'another process listens there already',
  EACCES: "this process's user may not listen on that port (below 1024 needs a privilege)",
  EADDRNOTAVAIL: 'this machine has no such address',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
};

/** A listen error as a refusal naming the settings that chose the address. */
export function listenFailure(settings: string, host: string, port: number, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const why = reasons[code] ? `${reasons[code]} (${code})` : (error as Error).message;
  return new ConfigError(`${settings}: cannot listen on ${host}:${port}: ${why}`);
}
