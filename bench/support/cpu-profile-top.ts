// Summarises a V8 .cpuprofile: self time per function and per package, highest first.
//   node --import tsx bench/support/cpu-profile-top.ts <file.cpuprofile> [rows]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = process.argv[2];
if (!file) throw new Error('usage: cpu-profile-top.ts <file.cpuprofile> [rows]');
const limit = Number(process.argv[3] ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const perFunction = new Map<string, number>();
const perPackage = new Map<string, number>();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const short = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/apps\//, 'apps/');
  const key = `${functionName || '(anon)'} ${short}:${lineNumber + 1}`;
  perFunction.set(key, (perFunction.get(key) ?? 0) + us);
  const pkg =
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
    (url.startsWith('node:') ? url : url ? 'app' : functionName);
  perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + us);
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
  }
};
print('self time by package', perPackage);
print('self time by function', perFunction);
