// A PostgreSQL cluster of a test's own (initdb in a temp folder, its own port), for faults the
// shared server must never see: starting after the portal, stopping under it.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const binDir = '/usr/lib/postgresql/15/bin';

/** Whether this machine can make a cluster of its own. */
export const canRunOwnPostgres = existsSync(join(binDir, 'initdb'));

export interface OwnPostgres {
  port: number;
  /** A URL for the superuser `postgres` (trust authentication) and the given database. */
  url(database?: string, password?: string): string;
  start(): void;
  stop(): void;
  /** Kills the cluster (pg_ctl's immediate mode: no clean shutdown; crash recovery on the next start). */
  kill(): void;
  remove(): void;
}

/** initdb refuses to run as root: then the cluster belongs to the `postgres` user. */
function run(command: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  execFileSync(
    asRoot ? 'runuser' : join(binDir, command),
    asRoot ? ['-u', 'postgres', '--', join(binDir, command), ...args] : args,
    {
      stdio: 'pipe',
    },
  );
}

/** Creates (initdb) a cluster for `port`; it is started separately. */
export function createOwnPostgres(port: number): OwnPostgres {
  const dir = mkdtempSync(join(tmpdir(), 'pra-own-pg-'));
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  return {
    port,
    url: (database = 'postgres', password) =>
      `postgres://postgres${password ? `:${password}` : ''}@127.0.0.1:${port}/${database}`,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']),
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    kill: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
