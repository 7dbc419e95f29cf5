// @vitest-environment node
// The build draws the pages in Node (scripts/prerender.mjs); in jsdom react-bootstrap would use portals.
import { describe, expect, it } from 'vitest';
import { fullName } from '@pra/contracts/session';
import { makeUser } from '../test/fake-server';
import { renderWelcomePage, USER_NAME_MARKERS, welcomeVariants } from './render-pages';

/**
 * What the server does to a drawn /welcome (apps/server/src/http/web-app.ts): the names, escaped
 * (React writes ' as &#x27; and the server as &#39;, the same text: the names here have none).
 */
function fillNames(html: string, givenName: string, familyName: string): string {
  const escape = (text: string) =>
    text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return html
    .replace(USER_NAME_MARKERS.givenName, escape(givenName))
    .replace(USER_NAME_MARKERS.familyName, escape(familyName));
}

describe('the drawn /welcome', () => {
  it('is drawn for every kind of signed-in person, each differently', async () => {
    // A vendor's record always says false to the BRM and admin flags: they count on employees only.
    const kinds = [true, false].flatMap((iiqAvailable) => [
      `vendor false false ${iiqAvailable}`,
      ...['false false', 'false true', 'true false', 'true true'].map((f) => `employee ${f} ${iiqAvailable}`),
    ]);
    const drawn = welcomeVariants.map((v) => `${v.type} ${v.isEmployeeBrm} ${v.isAdmin} ${v.iiqAvailable}`);
    expect(drawn.sort()).toEqual(kinds.sort());
    const pages = await Promise.all(welcomeVariants.map((variant) => renderWelcomePage(variant)));
    expect(new Set(pages).size).toBe(welcomeVariants.length);
  });

  it("with the names filled in is exactly the page the app draws for that person's record", async () => {
    for (const variant of welcomeVariants) {
      const user = makeUser({
        ...variant,
        givenName: 'Zoë <Ann> & "Co"',
        familyName: 'Smith-Jones',
        username: 'zsmith',
        email: 'zoe@acme.example',
        jobTitle: 'Field engineer',
        orgs: ['Acme Imaging', 'Beta Labs'],
      });
      expect(fullName(user)).not.toBe('');
      const drawn = fillNames(await renderWelcomePage(variant), user.givenName, user.familyName);
      expect(drawn, JSON.stringify(variant)).toBe(await renderWelcomePage(variant, user));
      expect(drawn).toContain('Welcome Zoë &lt;Ann&gt; &amp; &quot;Co&quot; Smith-Jones</h1>');
    }
  });
});
