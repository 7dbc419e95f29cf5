import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { html, type Html } from '../platform/html';

/** Where server-rendered pages (built-in IdP, dev mailbox) get Bootstrap from. */
const BOOTSTRAP_CSS_PATH = '/server-assets/bootstrap.min.css';

export interface DocumentOptions {
  /** The whole <title>. */
  title: string;
  body: Html;
  bodyClass?: string;
  /** Extra same-origin stylesheets after Bootstrap. */
  stylesheets?: string[];
  /** Same-origin script files (the CSP allows no inline script). */
  scripts?: string[];
}

/** The HTML document around a server-rendered page: language, viewport, no referrer, Bootstrap. */
export function renderDocument(options: DocumentOptions): string {
  const { title, body, bodyClass = '', stylesheets = [], scripts = [] } = options;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <link rel="stylesheet" href="${BOOTSTRAP_CSS_PATH}" />
        ${stylesheets.map((href) => html`<link rel="stylesheet" href="${href}" />`)}
        ${scripts.map((src) => html`<script src="${src}" defer></script>`)}
      </head>
      <body class="${bodyClass}">
        ${body}
      </body>
    </html>`.value;
}

function bootstrapCss(): string {
  const file = createRequire(import.meta.url).resolve('bootstrap/dist/css/bootstrap.min.css');
  // The source map is not served; drop the reference so browsers do not ask for it.
  return readFileSync(file, 'utf8').replace(/\/\*# sourceMappingURL=.*?\*\/\s*$/, '');
}

/** GET /server-assets/bootstrap.min.css, read once. */
export function registerServerAssets(app: FastifyInstance): void {
  const css = bootstrapCss();
  app.get(BOOTSTRAP_CSS_PATH, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(css),
  );
}

/**
 * Sends a server-rendered page. They carry CSRF tokens, SAML responses or mail contents: never
 * cached anywhere.
 */
export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}
