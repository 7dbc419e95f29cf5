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
    // dist/.vite/manifest.json: which chunks and stylesheets a drawn page needs (scripts/prerender.mjs).
    manifest: true,
    rolldownOptions: {
      // Everything the entry imports statically goes into the entry's own chunk. Split by which
      // lazy pages share them (react-query, the API client, paths...), they made eight files, which
      // every page loads anyway and which gzip worse apart: /home's JavaScript was 3.4 kB larger.
      output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } },
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
