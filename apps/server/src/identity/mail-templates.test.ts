import { describe, expect, it } from 'vitest';
import {
  accountActivatedMail,
  accountApprovedMail,
  awaitingDecisionMail,
  headerSafe,
  passwordResetLinkMail,
  registrationDeniedMail,
  registrationReceivedMail,
  signInLockedMail,
} from './mail-templates';

const site = { hospitalName: 'St. <Mary> & Co', publicUrl: 'https://pra.hospital.example' };
const evil = '<script>alert(1)</script>\r\nBcc: victim@example.com';

describe('mail templates', () => {
  const mails = [
    registrationReceivedMail(site, { firstName: evil, organization: 'Acme' }),
    awaitingDecisionMail(site, { firstName: evil, lastName: 'X', email: 'a@b.example', organization: evil }),
    accountApprovedMail(site, {
      firstName: evil,
      username: 'jdoe',
      code: 'ABCD-EFGH-JKMN-PQRS',
      expiresInDays: 14,
    }),
    registrationDeniedMail(site, { firstName: 'Jane', organization: 'Acme', justification: evil }),
    accountActivatedMail(site, { firstName: evil, username: 'jdoe' }),
    signInLockedMail(site, { firstName: evil, username: 'jdoe', minutes: 5 }),
  ];

  it.each(mails.map((m) => [m.template, m]))(
    '%s escapes every value in HTML and keeps the subject on one line',
    (_n, mail) => {
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).toContain('&lt;script&gt;');
      expect(mail.html).toContain('St. &lt;Mary&gt; &amp; Co');
      expect(mail.html).toContain('<html lang="en">');
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(mail.text).toContain('https://pra.hospital.example');
    },
  );

  it('carries the activation link and the code', () => {
    const mail = mails[2]!;
    expect(mail.text).toContain('https://pra.hospital.example/activate-account?code=ABCD-EFGH-JKMN-PQRS');
    expect(mail.text).toContain('ABCD-EFGH-JKMN-PQRS');
    expect(mail.text).toContain('jdoe');
    expect(mail.html).toContain(
      'href="https://pra.hospital.example/activate-account?code=ABCD-EFGH-JKMN-PQRS"',
    );
  });

  it('tells a rejected registrant the justification', () => {
    expect(
      registrationDeniedMail(site, { firstName: 'J', organization: 'Acme', justification: 'Unknown person' })
        .text,
    ).toContain('Reason: Unknown person');
  });

  it('makes header values safe', () => {
    expect(headerSafe('a\r\nBcc: x@y\u0000z')).toBe('a Bcc: x@y z');
  });

  it('the reset mail offers only what works: the link, not a code to type somewhere', () => {
    const mail = passwordResetLinkMail(site, {
      firstName: 'Jane',
      username: 'jdoe',
      code: 'ABCD-EFGH-JKMN-PQRS',
      minutes: 30,
    });
    expect(mail.text).toContain('https://pra.hospital.example/forgot-password?code=ABCD-EFGH-JKMN-PQRS');
    expect(mail.text).not.toMatch(/enter .*code/i);
    expect(mail.text.match(/ABCD-EFGH-JKMN-PQRS/g)).toHaveLength(1);
  });
});
