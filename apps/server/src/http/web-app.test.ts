import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { CurrentUser } from '@pra/contracts';
import { renderDrawnHtml, welcomePages } from './prerender/drawn-pages';
import { isSpaRoute, renderIndexHtml } from './web-app';

describe('renderIndexHtml', () => {
  const template =
    '<head><meta name="pra-hospital-name" content="" /><meta name="pra-support-email" content="" />' +
    '<meta name="pra-credential-vault-url" content="" /><meta name="description" content="x" /></head>';

  it('fills the deployment settings into their meta tags, escaped', () => {
    const html = renderIndexHtml(
      template,
      loadConfig({ HOSPITAL_NAME: 'St. "Mary" <Hospital>', SUPPORT_EMAIL: 'help@mary.example' }),
    );
    expect(html).toContain('<meta name="pra-hospital-name" content="St. &quot;Mary&quot; &lt;Hospital&gt;"');
    expect(html).toContain('<meta name="pra-support-email" content="help@mary.example"');
    expect(html).toContain('<meta name="pra-credential-vault-url" content="https://vault.example.org/"');
    expect(html).toContain('<meta name="description" content="x"');
  });
});

describe('renderDrawnHtml', () => {
  const prerendered =
    '<footer>© <!-- -->@@pra-hospital-name@@<!-- --> <a href="mailto:@@pra-support-email@@">Contact Us</a> @@pra-other@@</footer>';

  it("puts the landing page's markup into #root with the settings the meta tags carry, escaped", () => {
    const config = loadConfig({ HOSPITAL_NAME: 'St. "Mary" <Hospital>', SUPPORT_EMAIL: 'help@mary.example' });
    const template =
      '<head><script type="module" crossorigin src="/a.js"></script></head><body><div id="root"></div></body>';
    const html = renderDrawnHtml(template, prerendered, config, {
      script: '/a.js',
      preloads: [],
      stylesheets: [],
    });
    expect(html).toContain(
      '<body><div id="root"><footer>© <!-- -->St. &quot;Mary&quot; &lt;Hospital&gt;<!-- --> ' +
        '<a href="mailto:help@mary.example">Contact Us</a> @@pra-other@@</footer></div></body>',
    );
  });

  it('loads the scripts of the drawn page once it is painted', () => {
    const template =
      '<head>\n    <script type="module" crossorigin src="/a.js"></script>\n' +
      '    <link rel="modulepreload" crossorigin href="/b.js">\n' +
      '    <link rel="modulepreload" crossorigin href="/c.js">\n  </head><body><div id="root"></div></body>';
    expect(
      renderDrawnHtml(template, '<main></main>', loadConfig({}), {
        script: '/a.js',
        preloads: ['/b.js', '/c.js'],
        stylesheets: [],
      }),
    ).toBe(
      '<head>\n    ' +
        '  <script defer src="/load-after-paint.js" data-src="/a.js" data-preload="/b.js /c.js"></script>\n  </head>' +
        '<body><div id="root"><main></main></div></body>',
    );
  });

  it('gives up on a template without an empty #root', () => {
    expect(
      renderDrawnHtml('<body><div id="app"></div></body>', prerendered, loadConfig({}), {
        script: '/a.js',
        preloads: [],
        stylesheets: [],
      }),
    ).toBeNull();
  });
});

describe('welcomePages', () => {
  const template =
    '<head>\n    <script type="module" crossorigin src="/a.js"></script>\n' +
    '    <link rel="modulepreload" crossorigin href="/b.js">\n  </head><body><div id="root"></div></body>';
  const drawing = (kind: string) =>
    `<h1>Welcome @@pra-user-given-name@@ @@pra-user-family-name@@</h1><p>${kind}</p><p>@@pra-hospital-name@@</p>`;
  const welcomeJson = JSON.stringify({
    preloads: ['/layout.js', '/welcome.js'],
    stylesheets: ['/layout.css'],
    variants: [
      { variant: { type: 'vendor', isAdmin: false, iiqAvailable: true }, html: drawing('vendor') },
      { variant: { type: 'employee', isAdmin: true, iiqAvailable: true }, html: drawing('admin') },
    ],
  });
  const user = (fields: Partial<CurrentUser>) =>
    ({
      type: 'vendor',
      isAdmin: false,
      iiqAvailable: true,
      givenName: 'Ada',
      familyName: 'Lovelace',
      ...fields,
    }) as CurrentUser;
  const pageFor = welcomePages(template, welcomeJson, loadConfig({ HOSPITAL_NAME: 'St. Mary' }), {
    script: '/a.js',
    preloads: ['/b.js'],
    stylesheets: [],
  });

  it("draws the page of the person's kind with their names, escaped, and its stylesheets and chunks", () => {
    const page = pageFor(user({ givenName: '<b>Ada</b>', familyName: '@@pra-user-given-name@@ & Co' }));
    expect(page).toContain(
      '<div id="root"><h1>Welcome &lt;b&gt;Ada&lt;/b&gt; @@pra-user-given-name@@ &amp; Co</h1><p>vendor</p><p>St. Mary</p></div>',
    );
    expect(page).toContain(
      '  <link rel="stylesheet" crossorigin href="/layout.css">\n' +
        '  <script defer src="/load-after-paint.js" data-src="/a.js" data-preload="/b.js /layout.js /welcome.js"></script>\n  </head>',
    );
    expect(pageFor(user({ type: 'employee', isAdmin: true }))).toContain('<p>admin</p>');
  });

  it('draws nothing for a kind of person it has no drawing for, nor for a person without both names', () => {
    expect(pageFor(user({ type: 'employee', isAdmin: false }))).toBeNull();
    expect(pageFor(user({ iiqAvailable: false }))).toBeNull();
    expect(pageFor(user({ familyName: '' }))).toBeNull();
    expect(pageFor(user({ givenName: '' }))).toBeNull();
  });
});

describe('isSpaRoute', () => {
  it('knows the spec routes, with or without a trailing slash', () => {
    expect(isSpaRoute('/home')).toBe(true);
    expect(isSpaRoute('/brm/pending-approvals/')).toBe(true);
    expect(isSpaRoute('/')).toBe(true);
    expect(isSpaRoute('/nope')).toBe(false);
  });
});
