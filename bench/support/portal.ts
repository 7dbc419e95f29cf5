// Starts the built portal (`node apps/server/dist/server.js`, standalone mode, its built-in IdP) on a
// free port and a fresh data folder, for the browser benchmarks. Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '../processes';

/** The demo accounts' password in the portals started here. */
export const BENCH_DEMO_PASSWORD = 'Bench-Demo-Portal-2025!';

const serverScript = fileURLToPath(new URL('../../apps/server/dist/server.js', import.meta.url));

export interface Portal {
  /** e.g. http://localhost:40123 */
  url: string;
  stop(): Promise<void>;
}

export async function startPortal(): Promise<Portal> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pra-bench-'));
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  const server = await startNode(
    serverScript,
    (port) => ({
      PRA_MODE: 'standalone',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      DEMO_PASSWORD: BENCH_DEMO_PASSWORD,
      LOG_LEVEL: 'warn',
    }),
    '/readyz',
  ).catch((error: unknown) => {
    removeData();
    throw error;
  });
  return { url: server.url, stop: () => server.stop().then(removeData) };
}
