// Child processes for the bench: a free port each (never a fixed one), readiness by polling,
// resident memory and CPU time read from /proc, and a clean stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../apps/server/test/support/free-port';

export { freePort };

export interface Running {
  url: string;
  pid: number;
  /** Milliseconds from spawn until it answers its ready path with a 2xx. */
  startMs: number;
  /** Resident set size now, in MB. */
  rssMb(): number;
  /** User + system CPU time the process has used so far, in ms. */
  cpuMs: () => number;
  /** Its standard output's lines so far (the portal's log at its LOG_LEVEL), when asked for. */
  outputLines: () => string[];
  stop(): Promise<void>;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux (USER_HZ). */
function cpuMsOf(pid: number): number {
  // The fields after the command name (in parentheses, which may hold spaces): utime, stime are 14 and 15.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Waits until `url` answers 2xx; fails at once if `child` exits, and after 600 tries (with `stderr`). */
export async function waitForHttp(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}): ${stderr()}`);
    try {
      // The portal answers from its first moment (503 while it starts): ready means a 2xx.
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing answered at ${url}: ${stderr()}`);
}

/**
 * Starts `node [nodeArgs] <script>` on a free port (PORT), with the environment made for that
 * port, and waits until it answers. `launcher` runs node (e.g. `taskset -c 1`: it execs node, so
 * the process id stays node's).
 */
export async function startNode(
  script: string,
  env: (port: number) => Record<string, string>,
  readyPath = '/',
  nodeArgs: string[] = [],
  launcher: string[] = [],
  /** Keep its standard output (outputLines); otherwise it is dropped. */
  keepOutput = false,
): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const argv = [...launcher, process.execPath, ...nodeArgs, script];
  const child = spawn(argv[0]!, argv.slice(1), {
    env: { ...process.env, ...env(port), PORT: String(port) },
    stdio: ['ignore', keepOutput ? 'pipe' : 'ignore', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const url = `http://localhost:${port}`;
  try {
    await waitForHttp(`${url}${readyPath}`, child, () => errors);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const startMs = performance.now() - started;
  return {
    url,
    pid: child.pid!,
    startMs,
    rssMb: () => rssOf(child.pid!),
    cpuMs: () => cpuMsOf(child.pid!),
    outputLines: () => output.split('\n').filter(Boolean),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}
