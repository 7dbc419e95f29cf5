import { existsSync, readFileSync } from 'node:fs';
import { fullName } from '@pra/contracts';
import type { CurrentUser } from '@pra/contracts';
import type { Config } from '../../config';
import { escapeText } from '../../platform/html';
import { entryAssets, type EntryAssets } from './entry-assets';

/** The deployment's settings by the name of the pra-* meta tag (and prerender marker) that carries each. */
export function deploymentSettings(config: Config): Record<string, string> {
  return {
    'pra-hospital-name': config.HOSPITAL_NAME,
    'pra-support-email': config.SUPPORT_EMAIL,
    'pra-credential-vault-url': config.CREDENTIAL_VAULT_URL,
    // Manage Users' "Ask InfoSec to reset" mail draft (GOVERNANCE.md §7.3).
    'pra-infosec-email': config.INFOSEC_EMAIL ?? config.SUPPORT_EMAIL,
  };
}

/** What a drawn page needs besides the entry's files: its lazy chunks and their stylesheets. */
export interface PageAssets {
  preloads: string[];
  stylesheets: string[];
}

/** `html` without `tag` (exactly as written) and the whitespace after it; null when it is not there. */
function without(html: string, tag: string): string | null {
  const at = html.indexOf(tag);
  if (at < 0) return null;
  let end = at + tag.length;
  while (end < html.length && /\s/.test(html.charAt(end))) end += 1;
  return html.slice(0, at) + html.slice(end);
}

/**
 * A page already drawn: `indexHtml` (rendered) with markup the web build prerendered
 * (apps/web/src/prerender/) in #root, its `@@pra-…@@` setting markers replaced by the same
 * settings the meta tags carry, so the browser paints it before the JavaScript runs and React
 * takes it over (hydrates) unchanged. The page's own stylesheets (`assets`) join index.html's, as
 * render-blocking as those.
 *
 * Drawn, the page needs no code to paint: the entry's module script and modulepreload links (the
 * files the build's manifest names, `entry`) give way to apps/web/public/load-after-paint.js,
 * which loads the same files (and the page's lazy chunks) once the page is painted, so the first
 * paint does not share the network with them. Null when the template has no empty #root, or does
 * not load the entry as the manifest says (then the page is sent undrawn).
 */
export function renderDrawnHtml(
  indexHtml: string,
  prerendered: string,
  config: Config,
  entry: EntryAssets,
  assets: PageAssets = { preloads: [], stylesheets: [] },
): string | null {
  const settings = deploymentSettings(config);
  const markup = prerendered.replace(/@@(pra-[a-z-]+)@@/g, (whole, name: string) =>
    name in settings ? escapeText(settings[name] ?? '') : whole,
  );
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root)) return null;
  if (
    !entry.stylesheets.every((href) =>
      indexHtml.includes(`<link rel="stylesheet" crossorigin href="${href}">`),
    )
  )
    return null;
  let head: string | null = without(
    indexHtml,
    `<script type="module" crossorigin src="${entry.script}"></script>`,
  );
  for (const href of entry.preloads) {
    head = head && without(head, `<link rel="modulepreload" crossorigin href="${href}">`);
  }
  if (head === null) return null;
  const stylesheets = assets.stylesheets
    .map((href) => `  <link rel="stylesheet" crossorigin href="${escapeText(href)}">\n`)
    .join('');
  const preloads = escapeText([...entry.preloads, ...assets.preloads].join(' '));
  return head
    .replace(
      '</head>',
      `${stylesheets}  <script defer src="/load-after-paint.js" data-src="${escapeText(entry.script)}" data-preload="${preloads}"></script>\n  </head>`,
    )
    .replace(root, `<div id="root">${markup}</div>`);
}

/** The markers of the person's names in the drawn /welcome (apps/web/src/prerender/). */
const userNameMarkers = /@@pra-user-(given|family)-name@@/g;

/** What the web build drew /welcome for: one kind of signed-in person (apps/web/src/prerender/draw-pages.mjs). */
interface WelcomeDrawing {
  variant: Partial<CurrentUser>;
  html: string;
}

/**
 * /welcome drawn for each kind of signed-in person, from the web build's welcome.json: `pageFor`
 * gives the page for a current user, the names filled in, or null when there is no drawing for
 * them (a person without both names: the heading then reads 'Welcome', which is not drawn).
 */
export function welcomePages(
  indexHtml: string,
  welcomeJson: string,
  config: Config,
  entry: EntryAssets,
): (user: CurrentUser) => string | null {
  const { preloads, stylesheets, variants } = JSON.parse(welcomeJson) as PageAssets & {
    variants: WelcomeDrawing[];
  };
  const drawn = variants.flatMap(({ variant, html }) => {
    const page = renderDrawnHtml(indexHtml, html, config, entry, { preloads, stylesheets });
    return page ? [{ variant: Object.entries(variant), page }] : [];
  });
  return (user) => {
    if (!fullName(user)) return null;
    const match = drawn.find(({ variant }) =>
      variant.every(([key, value]) => user[key as keyof CurrentUser] === value),
    );
    // One pass, so a name holding a marker's text is never replaced again.
    return (
      match?.page.replace(userNameMarkers, (_whole, part: string) =>
        escapeText(part === 'given' ? user.givenName : user.familyName),
      ) ?? null
    );
  };
}

/**
 * The drawn pages of the web build in `distDir` (index.html already rendered as `indexHtml`):
 * /home from .prerendered/home.html and /welcome from .prerendered/welcome.json, loading the
 * entry's files as .vite/manifest.json names them. A page the build did not draw is null.
 */
export function drawnPages(
  distDir: string,
  indexHtml: string,
  config: Config,
): { home: string | null; welcome: (user: CurrentUser) => string | null } {
  const read = (file: string) =>
    existsSync(`${distDir}${file}`) ? readFileSync(`${distDir}${file}`, 'utf8') : null;
  const manifest = read('.vite/manifest.json');
  if (!manifest) return { home: null, welcome: () => null };
  const entry = entryAssets(manifest, indexHtml);
  const home = read('.prerendered/home.html');
  const welcome = read('.prerendered/welcome.json');
  return {
    home: home === null ? null : renderDrawnHtml(indexHtml, home, config, entry),
    welcome: welcome === null ? () => null : welcomePages(indexHtml, welcome, config, entry),
  };
}
