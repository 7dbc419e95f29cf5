import { describe, expect, it } from 'vitest';
import { adminSystemMessage, createOrganizationBody, personBody } from './administration';
import { approveOrDenyBody } from './approvals';
import { registrationBody } from './registration';
import { jobTitle, personName, plainText, textFieldMessages } from './text-fields';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('plainText', () => {
  it.each([
    ['carriage return', 'Jane\rDoe'],
    ['line feed', 'Jane\nVisit https://evil.example'],
    ['tab', 'Jane\tDoe'],
    ['NUL', 'Jane\u0000'],
    ['DEL', 'Jane\u007f'],
    ['C1 control', 'Jane\u0085Doe'],
    ['line separator', 'Jane\u2028Doe'],
    ['left-to-right mark', 'Jane\u200eDoe'],
    ['right-to-left mark', 'Jane\u200fDoe'],
    ['right-to-left override', 'Jane\u202eeoD'],
    ['left-to-right embedding', '\u202aJane'],
    ['first-strong isolate', 'Jane\u2068Doe\u2069'],
    ['right-to-left isolate', 'Jane\u2067Doe'],
    ['zero-width space', 'Ja\u200bne'],
    ['zero-width non-joiner', 'Ja\u200cne'],
    ['zero-width joiner', 'Ja\u200dne'],
    ['word joiner', 'Ja\u2060ne'],
    ['byte-order mark inside', 'Ja\ufeffne'],
  ])('refuses a %s with a field message', (_name, value) => {
    expect(messages(personName.safeParse(value))).toEqual([textFieldMessages.invalidCharacters]);
  });

  it('accepts names in any script, with accents, apostrophes, hyphens and inner spaces', () => {
    for (const name of ["O'Brien-Müller", 'José María', '李小龙', 'Ñúñez', 'Zoë Anne']) {
      expect(personName.parse(name)).toBe(name);
    }
  });

  it('refuses an over-long value instead of cutting it', () => {
    const long = 'a'.repeat(300);
    expect(messages(personName.safeParse(long))).toEqual(['Max 255 characters']);
    expect(personName.parse('a'.repeat(255))).toHaveLength(255);
    expect(messages(plainText({ max: 2000 }).safeParse('b'.repeat(2001)))).toEqual(['Max 2000 characters']);
  });

  it("says 'Required' for an empty required field and accepts an empty optional one", () => {
    expect(messages(personName.safeParse('   '))).toEqual(['Required']);
    expect(jobTitle.parse('')).toBe('');
  });
});

describe('the fields that use it', () => {
  const registration = { firstName: 'Jane', lastName: 'Doe', email: 'jane@acme.example', org: 'Acme' };

  it('registration refuses a first name with a line break and a 300-character last name', () => {
    const result = registrationBody.safeParse({
      ...registration,
      firstName: 'Jane\nDoe',
      lastName: 'x'.repeat(300),
    });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['firstName', textFieldMessages.invalidCharacters],
      ['lastName', 'Max 255 characters'],
    ]);
  });

  it('a decision refuses a justification with a bidi override or longer than 2000 characters', () => {
    const base = { decision: 'DENY', requestId: '6f1d4c52-3a59-4f0f-9d07-2b1c7d1e9a10' };
    expect(messages(approveOrDenyBody.safeParse({ ...base, comment: 'no \u202e reason' }))).toEqual([
      textFieldMessages.invalidCharacters,
    ]);
    expect(messages(approveOrDenyBody.safeParse({ ...base, comment: 'c'.repeat(2001) }))).toEqual([
      'Max 2000 characters',
    ]);
    expect(approveOrDenyBody.parse({ ...base, decision: 'APPROVE' }).comment).toBe('');
  });
});

describe('administration text', () => {
  it('organization and person names refuse control, bidi and zero-width characters', () => {
    expect(messages(createOrganizationBody.safeParse({ name: 'Acme\u202e', domains: [] }))).toEqual([
      textFieldMessages.invalidCharacters,
    ]);
    const person = {
      username: 'jdoe',
      givenName: 'Jane\u200b',
      familyName: 'Doe\tX',
      email: 'jane@hospital.example',
    };
    expect(messages(personBody.safeParse(person))).toEqual([
      textFieldMessages.invalidCharacters,
      textFieldMessages.invalidCharacters,
    ]);
  });

  it('the system message keeps its paragraphs, refuses other control characters, and nothing is cut', () => {
    const message = {
      enabled: true,
      loggedInOnly: false,
      severity: 'info',
      title: 'Maintenance',
      startsAt: null,
      endsAt: null,
    };
    expect(adminSystemMessage.parse({ ...message, text: 'Line one\r\nLine two\n' }).text).toBe(
      'Line one\nLine two',
    );
    expect(messages(adminSystemMessage.safeParse({ ...message, text: 'a\u0000b' }))).toEqual([
      textFieldMessages.invalidCharacters,
    ]);
    expect(messages(adminSystemMessage.safeParse({ ...message, title: 'T\nitle', text: '' }))).toEqual([
      textFieldMessages.invalidCharacters,
    ]);
    expect(messages(adminSystemMessage.safeParse({ ...message, text: 'x'.repeat(2001) }))).toEqual([
      'Max 2000 characters',
    ]);
  });
});
