import v8 from 'node:v8';
import type { BenchRow } from '../table';

/** Bytes V8 has allocated since the start (Node 24.10 and later; null before). */
function allocatedBytes(): number | null {
  const stats = v8.getHeapStatistics() as v8.HeapInfo & { total_allocated_bytes?: number };
  return stats.total_allocated_bytes ?? null;
}

/**
 * The CPU and wall time of one warm call of `call`: 100 calls to warm up, then three rounds of
 * `calls`, the best round of each kept. CPU time is the figure to compare on a shared machine,
 * where wall time follows the load. Also the memory one call allocates (the garbage young-generation
 * collections then sweep), over one more round. Rows named `${figure}, CPU per call` and so on.
 */
export async function warmCallRows(figure: string, calls: number, call: () => unknown): Promise<BenchRow[]> {
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) await call();
  };
  await run(100);
  const allocated = allocatedBytes();
  await run(calls);
  const allocatedAfter = allocatedBytes();
  const allocatedPerCall =
    allocated === null || allocatedAfter === null ? null : (allocatedAfter - allocated) / calls;
  const rounds: { cpu: number; wall: number }[] = [];
  for (let round = 0; round < 3; round++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    await run(calls);
    const used = process.cpuUsage(cpu);
    rounds.push({ cpu: (used.user + used.system) / 1000 / calls, wall: (performance.now() - start) / calls });
  }
  const best = (key: 'cpu' | 'wall') => Math.min(...rounds.map((r) => r[key]));
  return [
    {
      figure: `${figure}, CPU per call`,
      value: best('cpu'),
      unit: 'ms',
      note: `best of 3 rounds of ${calls}`,
    },
    { figure: `${figure}, wall per call`, value: best('wall'), unit: 'ms', note: 'follows the load' },
    {
      figure: `${figure}, memory allocated per call`,
      value: allocatedPerCall === null ? null : Math.round(allocatedPerCall / 1024),
      unit: 'kB',
      note: allocatedPerCall === null ? 'needs Node 24.10 or later' : `mean of ${calls}`,
    },
  ];
}
