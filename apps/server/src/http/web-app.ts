import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { routes } from '@pra/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { messages } from '../platform/app-error';
import { escapeText } from './html';

/** The built web app: apps/web/dist, found from both src/ (tests) and dist/ (the bundled server). */
const webDistDir = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** Browser routes the SPA answers; any other path still gets the SPA, with status 404. */
const spaRoutes = new Set<string>([...Object.values(routes), '/dev/mailbox']);

export function isSpaRoute(path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return spaRoutes.has(clean);
}

/**
 * Serves the web app's files and answers every other GET outside /api with index.html, so that
 * deep links work. Hashed assets are cached for a year; index.html never.
 */
/** index.html with the deployment's settings in its meta tags (no inline script: strict CSP). */
export function renderIndexHtml(template: string, config: Config): string {
  const settings: Record<string, string> = {
    'pra-hospital-name': config.HOSPITAL_NAME,
    'pra-support-email': config.SUPPORT_EMAIL,
    'pra-credential-vault-url': config.CREDENTIAL_VAULT_URL,
  };
  return template.replace(/<meta name="(pra-[a-z-]+)" content="[^"]*"/g, (whole, name: string) =>
    name in settings ? `<meta name="${name}" content="${escapeText(settings[name] ?? '')}"` : whole,
  );
}

function varyOnEncoding(res: { setHeader(name: string, value: string): unknown }) {
  res.setHeader('vary', 'accept-encoding');
}

export async function registerWebApp(app: FastifyInstance, config: Config): Promise<void> {
  const indexFile = `${webDistDir}index.html`;
  const hasBuild = existsSync(indexFile);
  const indexHtml = hasBuild ? renderIndexHtml(readFileSync(indexFile, 'utf8'), config) : '';
  if (hasBuild) {
    // The web build writes .br and .gz beside each file (apps/web/scripts/precompress.mjs).
    const common = { preCompressed: true, index: false as const, setHeaders: varyOnEncoding };
    // Hashed bundles never change under their name: cache them for a year.
    await app.register(fastifyStatic, {
      ...common,
      root: `${webDistDir}assets/`,
      prefix: '/assets/',
      maxAge: '365d',
      immutable: true,
    });
    // Everything else (favicon, logo, static docs) for an hour.
    await app.register(fastifyStatic, {
      ...common,
      root: webDistDir,
      wildcard: true,
      maxAge: '1h',
      decorateReply: false,
    });
  }

  // The static plugin would treat / as a directory listing; the SPA decides where / leads.
  app.get('/', (_request, reply) =>
    hasBuild
      ? reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml)
      : reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built: run npm run build'),
  );

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/');
    if (!wantsPage) {
      return reply
        .status(404)
        .type('application/json; charset=utf-8')
        .send({ errors: [messages.notFound] });
    }
    if (!hasBuild) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built: run npm run build');
    }
    return reply
      .status(isSpaRoute(path) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  });
}
