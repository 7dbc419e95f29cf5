import { html, type Html } from '../platform/html';
import { renderDocument } from '../http/server-page';

export interface PageOptions {
  hospitalName: string;
  /** The page's one <h1>; also the start of its <title>. */
  heading: string;
  body: Html;
  /** Script files to load (CSP allows only same-origin files, never inline script). */
  scripts?: string[];
}

/** The portal's own logo, served with the web app (the same file its top navigation shows). */
const PORTAL_LOGO_PATH = '/logo.svg';

/**
 * The portal's look for the IdP pages, so a vendor sees one product: the portal's header (white,
 * its 250x80 logo linking to the landing page), one centred card, the portal's dark footer.
 */
export function renderPage(options: PageOptions): string {
  const { hospitalName, heading, body, scripts = [] } = options;
  return renderDocument({
    title: `${heading} | ${hospitalName}`,
    bodyClass: 'idp-body',
    stylesheets: ['/idp/assets/idp.css'],
    scripts,
    body: html`<header class="idp-header bg-white border-bottom">
        <div class="container-fluid d-flex flex-wrap align-items-center column-gap-3 py-2">
          <a href="/home" class="idp-brand"
            ><img src="${PORTAL_LOGO_PATH}" width="250" height="80" alt="PRA Portal" class="idp-logo"
          /></a>
          <span class="idp-hospital">${hospitalName}</span>
        </div>
      </header>
      <main class="container idp-main">
        <div class="card idp-card mx-auto shadow-sm">
          <div class="card-body p-4">
            <h1 class="h3 mb-3">${heading}</h1>
            ${body}
          </div>
        </div>
      </main>
      <footer class="idp-footer">
        <div class="container py-3">Copyright &copy; 2025 ${hospitalName} &middot; PRA Portal</div>
      </footer>`,
  });
}

/** An alert for a refusal or problem; announced to screen readers as it appears with the page. */
export function errorAlert(message: string | null | undefined): Html {
  return message
    ? html`<div class="alert alert-danger" role="alert" id="form-error">${message}</div>`
    : html``;
}
