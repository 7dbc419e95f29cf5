// After `vite build`: draws the pages the server sends already drawn (render-pages.tsx) into
// dist/.prerendered/ (a dot directory: never served as files): home.html, the landing page's
// markup, and welcome.json, /welcome's markup for each kind of signed-in person with the chunks and
// stylesheets it needs (from the build's manifest). render-pages.tsx is first built for Node
// (vite build --ssr, every dependency bundled, so react-bootstrap's CommonJS modules interoperate)
// into dist/.prerender/, removed afterwards. A stand-in `document` whose pra-* meta tags hold
// markers stands for the page (site-links.ts reads the deployment's settings from them).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = new URL('../../dist/', import.meta.url);
const bundleDir = new URL('.prerender/', dist);
await build({
  root,
  logLevel: 'warn',
  build: {
    ssr: 'src/prerender/render-pages.tsx',
    outDir: fileURLToPath(bundleDir),
    emptyOutDir: true,
    copyPublicDir: false,
    minify: false,
    manifest: false,
  },
  ssr: { noExternal: true },
});

globalThis.document = {
  querySelector(selector) {
    const name = /^meta\[name="(pra-[a-z-]+)"\]$/.exec(selector)?.[1];
    return name ? { getAttribute: () => `@@${name}@@` } : null;
  },
};
const { renderHomePage, renderWelcomePage, welcomeModules, welcomeVariants } = await import(
  new URL('render-pages.js', bundleDir).href
);

/** React puts preload hints for the page's images first; the images are in the markup itself. */
async function draw(render, name) {
  const html = (await render()).replace(/^(<link rel="preload"[^>]*>)+/, '');
  // A part that failed to render leaves React's client-rendering marker: never ship that as the page.
  if (html.includes('<!--$!-->')) throw new Error(`prerendering ${name} failed:\n${html}`);
  return html;
}

/**
 * The chunks and stylesheets `modules` need beyond what index.html already loads: the entry's
 * static imports and what it preloads beside them (vite.config.ts, preloadAtStart).
 */
function assetsOf(modules) {
  const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
  const indexHtml = readFileSync(new URL('index.html', dist), 'utf8');
  const seen = new Set();
  const collect = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`prerender: ${key} is not in the build's manifest`);
    seen.add(key);
    (chunk.imports ?? []).forEach(collect);
  };
  const inIndex = new Set();
  const markIndex = (key) => {
    if (inIndex.has(key)) return;
    inIndex.add(key);
    (manifest[key].imports ?? []).forEach(markIndex);
  };
  markIndex('index.html');
  const preloaded = new Set(
    [...indexHtml.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g)].map((m) => m[1]),
  );
  Object.keys(manifest)
    .filter((key) => preloaded.has(manifest[key].file))
    .forEach(markIndex);
  modules.forEach(collect);
  const chunks = [...seen].filter((key) => !inIndex.has(key)).map((key) => manifest[key]);
  return {
    preloads: chunks.map((chunk) => `/${chunk.file}`),
    stylesheets: [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))].map((file) => `/${file}`),
  };
}

const home = await draw(renderHomePage, '/home');
const welcome = {
  ...assetsOf(welcomeModules),
  variants: await Promise.all(
    welcomeVariants.map(async (variant) => ({
      variant,
      html: await draw(() => renderWelcomePage(variant), `/welcome for ${JSON.stringify(variant)}`),
    })),
  ),
};
delete globalThis.document;
rmSync(bundleDir, { recursive: true, force: true });

const dir = new URL('.prerendered/', dist);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('home.html', dir), home);
writeFileSync(new URL('welcome.json', dir), JSON.stringify(welcome));
console.log(
  `prerendered /home (${home.length} characters), /welcome (${welcome.variants.length} kinds of person)`,
);
