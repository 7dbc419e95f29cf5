/**
 * Leaves the single-page app: the SAML login and the IdP's logout are server endpoints, so they
 * need a real browser navigation. One function so tests can observe it (jsdom cannot navigate).
 */
export function navigateAway(url: string): void {
  window.location.assign(url);
}
