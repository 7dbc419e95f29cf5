import type { FastifyInstance } from 'fastify';
import { webauthnJs } from './webauthn-script';

/** The IdP pages' own styles; served as a file because the CSP allows no inline <style>. */
const idpCss = `
.idp-body { min-height: 100vh; display: flex; flex-direction: column; background: #f4f6f9; }
.idp-logo { display: block; max-width: 100%; height: auto; }
.idp-hospital { color: #495057; }
.idp-main { flex: 1; padding-top: 2rem; padding-bottom: 2rem; }
.idp-card { max-width: 30rem; }
.idp-footer { background: #1d2b3a; color: #fff; }
.idp-secret code { font-size: 1.1rem; color: #212529; letter-spacing: 0.05em; }
/* The secret wraps between whole groups only, never inside one. */
.idp-secret-group { white-space: nowrap; }
.idp-code { font-size: 1.25rem; letter-spacing: 0.3em; }
.idp-qr { max-width: 100%; height: auto; image-rendering: pixelated; }
@media (max-width: 575.98px) { .idp-main { padding-top: 1rem; } .idp-card .card-body { padding: 1rem !important; } }
`;

/** Submits the SAML response form as soon as the page loads (no inline script under the CSP). */
const autoPostJs = `document.addEventListener('DOMContentLoaded', function () {
  var form = document.getElementById('saml-post-form');
  if (form) form.submit();
});
`;

/** GET /idp/assets/<file>: the IdP pages' own files (Bootstrap comes from /server-assets). */
export function registerIdpAssets(app: FastifyInstance): void {
  const files = new Map<string, { type: string; body: string }>([
    ['idp.css', { type: 'text/css; charset=utf-8', body: idpCss }],
    ['auto-post.js', { type: 'text/javascript; charset=utf-8', body: autoPostJs }],
    ['webauthn.js', { type: 'text/javascript; charset=utf-8', body: webauthnJs() }],
  ]);
  app.get<{ Params: { file: string } }>('/idp/assets/:file', async (request, reply) => {
    const file = files.get(request.params.file);
    if (!file) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    return reply.type(file.type).header('cache-control', 'public, max-age=3600').send(file.body);
  });
}
