// Bundles the server's entry points into dist/: TypeScript, the contracts package and the npm
// dependencies in one module graph, so a start reads a few files instead of resolving and
// compiling some two thousand (a warm start spent about a second on that). Code the entry points
// share lands in chunk files beside them. Packages that find files of their own at run time
// (WebAssembly, native addons, schemas, stylesheets, their package.json) stay imports.
// Typechecking is a separate step (npm run typecheck).
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Packages the bundle loads from node_modules at run time: `npm run package` ships them. */
export const runtimePackages = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'libxml2-wasm',
  '@authenio/samlify-xmllint-wasm',
  'bootstrap',
  '@fastify/swagger',
  '@simplewebauthn/browser',
];

const external = [
  ...runtimePackages,
  // pg's optional native binding, loaded only when asked for (never here).
  'pg-native',
  // Bundles the export worker when the server runs from source (platform/export-workers.ts); the
  // built server runs the worker built beside it and never loads it.
  'esbuild',
];

/**
 * How every entry point is bundled: by this build, and by platform/export-workers.ts for the export
 * worker when the server runs from source.
 */
export const bundleOptions = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  external,
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
};

// `node build.mjs` builds; `npm run package` imports this module for runtimePackages, and
// platform/export-workers.ts for bundleOptions.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();

async function buildServer() {
  // Chunk names change with their content: start from an empty folder, not last build's files.
  rmSync(new URL('./dist/', import.meta.url), { recursive: true, force: true });

  await build({
    entryPoints: [
      'src/server.ts',
      'src/portal.ts',
      'src/seed-demo.ts',
      'src/admin.ts',
      'src/export-worker.ts',
    ],
    ...bundleOptions,
    outdir: 'dist',
    splitting: true,
    // Beside the entry points: code that finds files relative to its own module (the web build,
    // the IdP's schemas) sees the same folders from every file.
    chunkNames: '[name]-[hash]',
    sourcemap: true,
  });
}
