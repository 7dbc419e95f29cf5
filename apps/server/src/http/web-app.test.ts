import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { isSpaRoute, renderHomeHtml, renderIndexHtml } from './web-app';

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

describe('renderHomeHtml', () => {
  const prerendered =
    '<footer>© <!-- -->@@pra-hospital-name@@<!-- --> <a href="mailto:@@pra-support-email@@">Contact Us</a> @@pra-other@@</footer>';

  it("puts the landing page's markup into #root with the settings the meta tags carry, escaped", () => {
    const config = loadConfig({ HOSPITAL_NAME: 'St. "Mary" <Hospital>', SUPPORT_EMAIL: 'help@mary.example' });
    const template =
      '<head><script type="module" crossorigin src="/a.js"></script></head><body><div id="root"></div></body>';
    const html = renderHomeHtml(template, prerendered, config);
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
    expect(renderHomeHtml(template, '<main></main>', loadConfig({}))).toBe(
      '<head>\n    ' +
        '  <script defer src="/load-after-paint.js" data-src="/a.js" data-preload="/b.js /c.js"></script>\n  </head>' +
        '<body><div id="root"><main></main></div></body>',
    );
  });

  it('gives up on a template without an empty #root', () => {
    expect(renderHomeHtml('<body><div id="app"></div></body>', prerendered, loadConfig({}))).toBeNull();
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
