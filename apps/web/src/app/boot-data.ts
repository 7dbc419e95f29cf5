import type { QueryClient } from '@tanstack/react-query';
import { authStatusBody, csrfBody, currentUserBody, systemMessageBody } from '../api/boot-parsers';
import { setCsrfToken } from '../api/csrf-token';
import { queryKeys } from '../lib/query-keys';

/**
 * Seeds the boot queries (CSRF token, auth status, system message, and for a signed-in session the
 * current user) from the pra-boot meta tag the server fills into each page
 * (apps/server/src/http/web-app.ts), so the first screen renders as soon as the code runs instead
 * of after three calls (four: the signed-in pages' guards wait for GET /api/user). The tag is read once and removed. A page
 * without it (the dev server, or the server could not load it) leaves the app to make the calls.
 */
export function seedBootData(client: QueryClient, doc: Document = document): boolean {
  const tag = doc.querySelector('meta[name="pra-boot"]');
  const content = tag?.getAttribute('content');
  tag?.remove();
  if (!content) return false;
  try {
    const data = JSON.parse(content) as Record<string, unknown>;
    const { csrfToken } = csrfBody.parse({ csrfToken: data.csrfToken });
    const authStatus = authStatusBody.parse(data.authStatus);
    const systemMessage = systemMessageBody.parse(data.systemMessage);
    // Only with a signed-in status: the app asks for the user of authenticated sessions only.
    const user =
      authStatus.isAuthenticated && data.currentUser !== undefined
        ? currentUserBody.parse(data.currentUser)
        : undefined;
    setCsrfToken(csrfToken);
    client.setQueryData(queryKeys.csrf, csrfToken);
    client.setQueryData(queryKeys.authStatus, authStatus);
    client.setQueryData(queryKeys.systemMessage, systemMessage);
    if (user) client.setQueryData(queryKeys.currentUser, user);
    return true;
  } catch {
    return false;
  }
}
