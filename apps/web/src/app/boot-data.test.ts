import { describe, expect, it } from 'vitest';
import { getCsrfToken, setCsrfToken } from '../api/csrf-token';
import { makeUser } from '../test/fake-server';
import { seedBootData } from './boot-data';
import { createQueryClient } from '../lib/query-client';
import { queryKeys } from '../lib/query-keys';

function pageWith(content: string | null): Document {
  const doc = document.implementation.createHTMLDocument('page');
  if (content !== null) {
    const meta = doc.createElement('meta');
    meta.setAttribute('name', 'pra-boot');
    meta.setAttribute('content', content);
    doc.head.append(meta);
  }
  return doc;
}

const data = {
  csrfToken: 'token-from-the-page',
  authStatus: { isAuthenticated: true, expires: '2026-01-01T10:00:00.000Z', remainingSessionExtentions: 5 },
  systemMessage: { enabled: false, loggedInOnly: false, severity: 'info', title: '', text: '' },
};

describe('seedBootData', () => {
  it('seeds the three boot queries and the CSRF token from the page, once', () => {
    setCsrfToken(undefined);
    const client = createQueryClient();
    const doc = pageWith(JSON.stringify(data));
    expect(seedBootData(client, doc)).toBe(true);
    expect(getCsrfToken()).toBe('token-from-the-page');
    expect(client.getQueryData(queryKeys.csrf)).toBe('token-from-the-page');
    expect(client.getQueryData(queryKeys.authStatus)).toEqual(data.authStatus);
    expect(client.getQueryData(queryKeys.systemMessage)).toEqual(data.systemMessage);
    expect(doc.querySelector('meta[name="pra-boot"]')).toBeNull();
  });

  it('seeds the current user of a signed-in page, and never one beside an anonymous status', () => {
    const user = makeUser();
    const signedIn = createQueryClient();
    expect(seedBootData(signedIn, pageWith(JSON.stringify({ ...data, currentUser: user })))).toBe(true);
    expect(signedIn.getQueryData(queryKeys.currentUser)).toEqual(user);

    const withoutUser = createQueryClient();
    expect(seedBootData(withoutUser, pageWith(JSON.stringify(data)))).toBe(true);
    expect(withoutUser.getQueryData(queryKeys.currentUser)).toBeUndefined();

    const anonymous = createQueryClient();
    const anonymousPage = { ...data, authStatus: { isAuthenticated: false }, currentUser: user };
    expect(seedBootData(anonymous, pageWith(JSON.stringify(anonymousPage)))).toBe(true);
    expect(anonymous.getQueryData(queryKeys.currentUser)).toBeUndefined();
  });

  it('leaves the calls to the app when the page has no boot data or a malformed one', () => {
    for (const content of [
      null,
      '',
      '{not json',
      JSON.stringify({ ...data, authStatus: { isAuthenticated: 'yes' } }),
      JSON.stringify({ ...data, currentUser: { ...makeUser(), type: 'admin' } }),
    ]) {
      const client = createQueryClient();
      expect(seedBootData(client, pageWith(content))).toBe(false);
      expect(client.getQueryData(queryKeys.authStatus)).toBeUndefined();
    }
  });
});
