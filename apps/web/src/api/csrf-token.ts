// The CSRF synchronizer token, fetched once at boot. Sign-in reloads the page, which fetches a fresh one.
let csrfToken: string | undefined;

export function getCsrfToken(): string | undefined {
  return csrfToken;
}

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}
