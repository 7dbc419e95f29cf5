/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API server (apps/server) serves these paths; the dev server forwards them so cookies stay same-origin.
const serverUrl = 'http://localhost:8080';
const proxied = ['/api', '/idp', '/dev', '/example.csv'];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks and stylesheets a drawn page needs (src/prerender/draw-pages.mjs).
    manifest: true,
    rolldownOptions: {
      treeshake: { manualPureFunctions: ['z'] },
      // Everything the entry imports statically goes into the entry's own chunk. Split by which
      // lazy pages share them (react-query, the API client, paths...), they made eight files, which
      // every page loads anyway and which gzip worse apart: /home's JavaScript was 3.4 kB larger.
      // react-bootstrap and the libraries under it go together too (the `ui` chunk, 31 kB gzip):
      // split by page, they were some thirty small files, which a signed-in page (/welcome: 38
      // files, now 13) loaded and linked one by one.
      output: {
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'] },
            {
              name: 'ui',
              test: /node_modules[\\/](react-bootstrap|@restart|dom-helpers|@popperjs|react-transition-group|prop-types|classnames|uncontrollable|warning|invariant|dequal|@babel[\\/]runtime)[\\/]/,
            },
          ],
        },
      },
    },
  },
  // No Sass here: the app imports the committed *.compiled.css (scripts/compile-styles.mjs).
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: serverUrl, changeOrigin: false }])),
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});
