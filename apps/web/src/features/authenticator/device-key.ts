/** Where the phone keeps its device key (only this origin's pages can read it). */
const STORAGE_KEY = 'pra-authenticator-key';

/**
 * The device key: taken from the pairing link's fragment (`#key=…`, never sent to a server) and
 * stored, the fragment then removed from the address bar and history; otherwise the stored one.
 */
export function readDeviceKey(): string | undefined {
  const fromLink = new URLSearchParams(window.location.hash.slice(1)).get('key');
  if (fromLink) {
    window.localStorage.setItem(STORAGE_KEY, fromLink);
    window.history.replaceState(window.history.state, '', window.location.pathname);
    return fromLink;
  }
  return window.localStorage.getItem(STORAGE_KEY) ?? undefined;
}

export function forgetDeviceKey(): void {
  window.localStorage.removeItem(STORAGE_KEY);
}
