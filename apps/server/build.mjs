// Bundles the server's entry points into dist/ (TypeScript and the contracts package inlined,
// npm dependencies left as imports). Typechecking is a separate step (npm run typecheck).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@pra/'));

await build({
  entryPoints: ['src/server.ts', 'src/prepare.ts', 'src/seed-demo.ts', 'src/admin.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
