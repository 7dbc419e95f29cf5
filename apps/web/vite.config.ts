/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';
import type { OutputChunk } from 'rolldown';

// The API server (apps/server) serves these paths; the dev server forwards them so cookies stay same-origin.
const serverUrl = 'http://localhost:8080';
const proxied = ['/api', '/idp', '/dev', '/example.csv'];

/**
 * index.html preloads the chunks named `names` (imported dynamically at start: main.tsx's React DOM
 * renderer) as Vite preloads the entry's static imports, each with the chunks it imports and their
 * stylesheets: they then arrive with the entry, not one round trip after it. The server's drawn
 * pages load what index.html preloads after their first paint (apps/server/src/http/prerender/).
 */
function preloadAtStart(names: readonly string[]): Plugin {
  return {
    name: 'pra-preload-at-start',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk) return [];
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (fileNames: readonly string[], into = new Set<string>()) => {
          for (const fileName of fileNames) {
            if (into.has(fileName)) continue;
            into.add(fileName);
            closure(byFile.get(fileName)!.imports, into);
          }
          return into;
        };
        const linked = closure([chunk.fileName]);
        const named = chunks.filter((c) => names.includes(c.name)).map((c) => c.fileName);
        if (named.length !== names.length)
          throw new Error(`preloadAtStart: no chunk for each of ${names.join(', ')}`);
        const added = [...closure(named)].filter((fileName) => !linked.has(fileName));
        const css = new Set(
          added.flatMap((fileName) => [...(byFile.get(fileName)!.viteMetadata?.importedCss ?? [])]),
        );
        const link = (rel: string, href: string): HtmlTagDescriptor => ({
          tag: 'link',
          attrs: { rel, crossorigin: true, href: `/${href}` },
          injectTo: 'head',
        });
        return [
          ...added.map((fileName) => link('modulepreload', fileName)),
          ...[...css].map((fileName) => link('stylesheet', fileName)),
        ];
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), preloadAtStart(['react-dom'])],
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
            // React's DOM renderer, imported by main.tsx at once but apart, to be evaluated in a
            // task of its own (index.html preloads it: preloadAtStart above).
            { name: 'react-dom', test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
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
