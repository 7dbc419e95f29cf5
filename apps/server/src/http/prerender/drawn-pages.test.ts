import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@pra/contracts';
import { loadConfig } from '../../config';
import { drawnPages, renderDrawnHtml } from './drawn-pages';
import { entryAssets } from './entry-assets';

const manifest = JSON.stringify({
  'index.html': { file: 'assets/index-1.js', imports: ['_a.js'], css: ['assets/index-1.css'] },
  '_a.js': { file: 'assets/a-2.js', imports: ['_b.js'], css: ['assets/a-2.css'] },
  '_b.js': { file: 'assets/b-3.js', imports: ['_a.js'] },
  'src/lazy.tsx': { file: 'assets/lazy-4.js', isDynamicEntry: true },
  // Loaded apart at start (index.html preloads it): it imports the entry and a chunk of its own.
  '_apart.js': { file: 'assets/apart-5.js', imports: ['index.html', '_c.js'], css: ['assets/apart-5.css'] },
  '_c.js': { file: 'assets/c-6.js', imports: ['_a.js'] },
});

const template = (parts: string[]) =>
  `<head>\n${parts.map((p) => `    ${p}\n`).join('')}  </head><body><div id="root"></div></body>`;
const indexOf = {
  script: '<script type="module" crossorigin src="/assets/index-1.js"></script>',
  preloadA: '<link rel="modulepreload" crossorigin href="/assets/a-2.js">',
  preloadB: '<link rel="modulepreload" crossorigin href="/assets/b-3.js">',
  css: '<link rel="stylesheet" crossorigin href="/assets/index-1.css">',
  cssA: '<link rel="stylesheet" crossorigin href="/assets/a-2.css">',
};

describe("the entry's files from Vite's manifest", () => {
  it('names the entry script, its static imports all the way down, and their stylesheets', () => {
    expect(entryAssets(manifest, template(Object.values(indexOf)))).toEqual({
      script: '/assets/index-1.js',
      preloads: ['/assets/a-2.js', '/assets/b-3.js'],
      stylesheets: ['/assets/index-1.css', '/assets/a-2.css'],
    });
  });

  it('adds a chunk index.html preloads beside them, with its own imports and stylesheet', () => {
    const withApart = template([
      ...Object.values(indexOf),
      '<link rel="modulepreload" crossorigin href="/assets/apart-5.js">',
      '<link rel="modulepreload" crossorigin href="/assets/c-6.js">',
      '<link rel="modulepreload" crossorigin href="/assets/not-built.js">',
    ]);
    expect(entryAssets(manifest, withApart)).toEqual({
      script: '/assets/index-1.js',
      preloads: ['/assets/a-2.js', '/assets/b-3.js', '/assets/apart-5.js', '/assets/c-6.js'],
      stylesheets: ['/assets/index-1.css', '/assets/a-2.css', '/assets/apart-5.css'],
    });
  });

  it('refuses a manifest without the entry or naming a chunk it does not hold', () => {
    expect(() => entryAssets('{}', '')).toThrow('no index.html');
    expect(() =>
      entryAssets(JSON.stringify({ 'index.html': { file: 'x.js', imports: ['_gone.js'] } }), ''),
    ).toThrow('no _gone.js');
  });
});

describe('a drawn page, driven by the manifest', () => {
  const entry = entryAssets(manifest, template(Object.values(indexOf)));
  const config = loadConfig({});

  it('loads every file the manifest names for the entry once painted, and keeps its stylesheets', () => {
    const page = renderDrawnHtml(template(Object.values(indexOf)), '<main></main>', config, entry);
    expect(page).toBe(
      template([indexOf.css, indexOf.cssA])
        .replace(
          '</head>',
          '  <script defer src="/load-after-paint.js" data-src="/assets/index-1.js" data-preload="/assets/a-2.js /assets/b-3.js"></script>\n  </head>',
        )
        .replace('<div id="root"></div>', '<div id="root"><main></main></div>'),
    );
  });

  it.each([
    ['its entry script', indexOf.script],
    ['a chunk it preloads', indexOf.preloadB],
    ['a stylesheet', indexOf.cssA],
  ])('is not drawn from an index.html that lacks %s the manifest names', (_name, missing) => {
    const parts = Object.values(indexOf).filter((p) => p !== missing);
    expect(renderDrawnHtml(template(parts), '<main></main>', config, entry)).toBeNull();
  });
});

describe("the web build's drawn pages", () => {
  const dist = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));
  const built = JSON.parse(readFileSync(`${dist}.vite/manifest.json`, 'utf8')) as Record<
    string,
    { file: string; name?: string; imports?: string[]; css?: string[] }
  >;
  const index = readFileSync(`${dist}index.html`, 'utf8');
  const pages = drawnPages(dist, index, loadConfig({}));
  const welcome = JSON.parse(readFileSync(`${dist}.prerendered/welcome.json`, 'utf8')) as {
    preloads: string[];
    stylesheets: string[];
  };
  const vendor = {
    type: 'vendor',
    isEmployeeBrm: false,
    isAdmin: false,
    iiqAvailable: true,
    givenName: 'Ada',
    familyName: 'Lovelace',
  } as CurrentUser;

  /** What a page loads: its stylesheet links, and the files load-after-paint.js fetches. */
  function loads(page: string) {
    const script =
      /<script defer src="\/load-after-paint.js" data-src="([^"]+)" data-preload="([^"]*)">/.exec(page);
    return {
      scripts: script ? [script[1], ...(script[2] ?? '').split(' ').filter(Boolean)] : [],
      stylesheets: [...page.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)].map((m) => m[1]),
    };
  }

  /**
   * Every file the manifest names for the entry: its script, its imports', those of the React DOM
   * renderer (loaded apart at start), and all their stylesheets.
   */
  function entryFiles() {
    const scripts: string[] = [];
    const stylesheets: string[] = [];
    const visit = (key: string) => {
      const chunk = built[key]!;
      if (scripts.includes(`/${chunk.file}`)) return;
      scripts.push(`/${chunk.file}`);
      stylesheets.push(...(chunk.css ?? []).map((f) => `/${f}`));
      (chunk.imports ?? []).forEach(visit);
    };
    visit('index.html');
    Object.keys(built)
      .filter((key) => built[key]!.name === 'react-dom')
      .forEach(visit);
    return { scripts, stylesheets };
  }

  it('preload the React DOM renderer, which the entry imports apart, with the entry', () => {
    const reactDom = Object.values(built).filter((chunk) => chunk.name === 'react-dom');
    expect(reactDom).toHaveLength(1);
    expect(index).toContain(`<link rel="modulepreload" crossorigin href="/${reactDom[0]!.file}">`);
    expect(built['index.html']!.imports).not.toContain(
      Object.keys(built).find((key) => built[key] === reactDom[0]),
    );
  });

  it('are drawn, and each loads every file the manifest names for the entry', () => {
    expect(pages.home).not.toBeNull();
    const welcomePage = pages.welcome(vendor);
    expect(welcomePage).not.toBeNull();
    const expected = entryFiles();
    for (const page of [pages.home!, welcomePage!]) {
      const found = loads(page);
      expect(found.scripts).toEqual(expect.arrayContaining(expected.scripts));
      expect(found.stylesheets).toEqual(expect.arrayContaining(expected.stylesheets));
    }
    const found = loads(welcomePage!);
    expect(found.scripts).toEqual(expect.arrayContaining(welcome.preloads));
    expect(found.stylesheets).toEqual(expect.arrayContaining(welcome.stylesheets));
  });
});
