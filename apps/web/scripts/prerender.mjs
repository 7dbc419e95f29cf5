// After `vite build`: writes dist/.prerendered/home.html, the landing page's markup (src/prerender.tsx)
// for the server to put into index.html's #root on /home. The leading dot keeps it from being
// served as a file. Runs the TypeScript source through tsx, with a stand-in `document` whose
// pra-* meta tags hold markers (site-links.ts reads the deployment's settings from them).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The web app's tsconfig (automatic JSX runtime), whatever the directory this runs from.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
globalThis.document = {
  querySelector(selector) {
    const name = /^meta\[name="(pra-[a-z-]+)"\]$/.exec(selector)?.[1];
    return name ? { getAttribute: () => `@@${name}@@` } : null;
  },
};
const { renderHomePage } = await import('../src/prerender.tsx');
// React puts preload hints for the page's images first; the images are in the markup itself.
const html = renderHomePage().replace(/^(<link rel="preload"[^>]*>)+/, '');
// A part that failed to render leaves React's client-rendering marker: never ship that as the page.
if (html.includes('<!--$!-->')) throw new Error(`prerendering /home failed:\n${html}`);
delete globalThis.document;
const dir = new URL('../dist/.prerendered/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('home.html', dir), html);
console.log(`prerendered /home (${html.length} characters)`);
