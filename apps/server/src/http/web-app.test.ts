import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
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

describe('isSpaRoute', () => {
  it('knows the spec routes, with or without a trailing slash', () => {
    expect(isSpaRoute('/home')).toBe(true);
    expect(isSpaRoute('/brm/pending-approvals/')).toBe(true);
    expect(isSpaRoute('/')).toBe(true);
    expect(isSpaRoute('/nope')).toBe(false);
  });
});
