import { describe, expect, it } from 'vitest';
import {
  authStatusResponse,
  csrfResponse,
  currentUser,
  defaultPasswordComplexity,
  myAup,
  mySponsors,
  pairedAuthenticators,
  passwordRequirements,
  securityKeyList,
  systemMessage,
} from '@pra/contracts';
import { makeUser } from '../test/fake-server';
import {
  authStatusBody,
  csrfBody,
  currentUserBody,
  myAupBody,
  mySponsorsBody,
  pairedAuthenticatorsBody,
  passwordRequirementsBody,
  securityKeyListBody,
  systemMessageBody,
} from './boot-parsers';
import type { ResponseParser } from './client';

const outcome = (parser: ResponseParser<unknown>, body: unknown) => {
  try {
    return { ok: parser.parse(body) };
  } catch {
    return 'refused';
  }
};

const user = makeUser({ orgs: ['Acme Imaging', 'Beta Labs'] });

const rules = {
  status: 'success',
  Password_Complexity: defaultPasswordComplexity,
  blockedTerms: ['jdoe', 'Hospital'],
  rejectCommonPasswords: true,
};
const phone = { id: 'a1', nickname: 'Work phone', pairedAt: '2026-11-20T08:00:00.000Z', isRecent: false };

const key = {
  id: 'k1',
  nickname: 'Laptop',
  addedAt: '2026-11-20T08:00:00.000Z',
  lastUsedAt: '2026-11-21T08:00:00.000Z',
  type: 'thisDevice',
};
const keyList = {
  authenticatorApp: null,
  required: true,
  requiredBy: 'Acme Imaging',
  needsKeyConfirmation: true,
  max: 10,
};

const sponsor = { organization: 'Acme Imaging', name: 'Bea Sponsor', email: 'bea@hospital.example' };
const policy = {
  version: 2,
  title: 'Acceptable Use Policy',
  bodyMd: '# Rules',
  effectiveOn: '2027-01-01',
  sha256: 'ab'.repeat(32),
  publishedAt: '2026-12-01T08:00:00.000Z',
  publishedBy: 'Ada Admin',
};
const standing = {
  state: 'due',
  acceptedVersion: 1,
  acceptedOn: '2026-01-10',
  dueOn: '2027-01-01',
  blocksAfter: '2027-01-15',
  reviewBy: '2027-01-01',
};

const message = { enabled: true, loggedInOnly: false, severity: 'warning', title: 'T', text: 'x' };

// Each hand-written parser must accept, refuse and strip exactly as its contract schema does.
const cases: Array<[string, ResponseParser<unknown>, ResponseParser<unknown>, unknown[]]> = [
  [
    'csrf',
    csrfBody,
    csrfResponse,
    [{ csrfToken: 'abc' }, { csrfToken: 'abc', extra: 1 }, { csrfToken: 1 }, {}, null, [], 'x'],
  ],
  [
    'auth status',
    authStatusBody,
    authStatusResponse,
    [
      { isAuthenticated: false },
      { isAuthenticated: true, expires: '2026-11-23T07:30:00.000Z', remainingSessionExtentions: 3 },
      { isAuthenticated: true, expires: '2026-11-23T07:30:00Z', remainingSessionExtentions: 0, other: 'x' },
      { isAuthenticated: true, expires: '2026-11-23T07:30:00+01:00' },
      { isAuthenticated: true, expires: 'tomorrow' },
      { isAuthenticated: true, remainingSessionExtentions: -1 },
      { isAuthenticated: true, remainingSessionExtentions: 1.5 },
      { isAuthenticated: 'yes' },
      {},
    ],
  ],
  [
    'system message',
    systemMessageBody,
    systemMessage,
    [
      message,
      { ...message, id: 7 },
      { ...message, severity: 'error' },
      { ...message, title: undefined },
      { ...message, enabled: 'true' },
      { ...message, loggedInOnly: undefined },
    ],
  ],
  [
    'current user',
    currentUserBody,
    currentUser,
    [
      user,
      makeUser({ type: 'employee', isEmployeeBrm: true, isAdmin: true, orgs: [], iiqAvailable: false }),
      { ...user, password: 'x', extra: 1 },
      { ...user, type: 'admin' },
      { ...user, orgs: 'Acme Imaging' },
      { ...user, orgs: ['Acme Imaging', 7] },
      { ...user, isAdmin: 'false' },
      { ...user, id: undefined },
      { ...user, iiqAvailable: undefined },
      { ...user, manager: null },
      [],
      null,
    ],
  ],
  [
    'password requirements',
    passwordRequirementsBody,
    passwordRequirements,
    [
      rules,
      { ...rules, blockedTerms: [], rejectCommonPasswords: false, extra: 1 },
      { ...rules, Password_Complexity: { ...defaultPasswordComplexity, extra: 2 } },
      { ...rules, Password_Complexity: { ...defaultPasswordComplexity, minLength: 1.5 } },
      { ...rules, Password_Complexity: { ...defaultPasswordComplexity, maxLength: '128' } },
      { ...rules, Password_Complexity: { ...defaultPasswordComplexity, minNumeric: undefined } },
      { ...rules, Password_Complexity: null },
      { ...rules, status: 'failure' },
      { ...rules, blockedTerms: ['x', 1] },
      { ...rules, rejectCommonPasswords: 'yes' },
      [],
    ],
  ],
  [
    'paired authenticators',
    pairedAuthenticatorsBody,
    pairedAuthenticators,
    [
      { needsPasscode: true, authenticators: [] },
      { needsPasscode: false, authenticators: [phone, { ...phone, id: 'b2', isRecent: true, extra: 1 }] },
      { needsPasscode: false, authenticators: [{ ...phone, nickname: undefined }] },
      { needsPasscode: false, authenticators: [{ ...phone, isRecent: 'no' }] },
      { needsPasscode: false, authenticators: [null] },
      { needsPasscode: 'false', authenticators: [] },
      { needsPasscode: true, authenticators: {} },
      { needsPasscode: true },
    ],
  ],
  [
    'security keys',
    securityKeyListBody,
    securityKeyList,
    [
      {
        keys: [],
        authenticatorApp: null,
        required: false,
        requiredBy: null,
        needsKeyConfirmation: false,
        max: 10,
      },
      { keys: [key], ...keyList, requiredBy: 3 },
      { keys: [key, { ...key, id: 'k2', lastUsedAt: null, type: 'synced' }], ...keyList },
      { keys: [{ ...key, type: 'cloud' }], ...keyList },
      { keys: [{ ...key, lastUsedAt: 3 }], ...keyList },
      { keys: [{ ...key, nickname: undefined }], ...keyList },
      { keys: [key], ...keyList, authenticatorApp: 'Phone' },
      { keys: [key], ...keyList, required: 'yes' },
      { keys: [key], ...keyList, max: -1 },
      { keys: {}, ...keyList },
    ],
  ],
  [
    'sponsors',
    mySponsorsBody,
    mySponsors,
    [
      { sponsors: [] },
      { sponsors: [sponsor, { organization: 'Beta Labs', name: null, email: null }] },
      { sponsors: [{ ...sponsor, extra: 'dropped' }], more: 1 },
      { sponsors: [{ ...sponsor, name: 3 }] },
      { sponsors: [{ ...sponsor, organization: undefined }] },
      { sponsors: {} },
      {},
      null,
    ],
  ],
  [
    'Acceptable Use Policy',
    myAupBody,
    myAup,
    [
      { policy, standing },
      {
        policy: { ...policy, publishedBy: null },
        standing: { ...standing, acceptedVersion: null, acceptedOn: null },
      },
      { policy: { ...policy, extra: 1 }, standing: { ...standing, state: 'overdue' }, more: true },
      { policy: { ...policy, version: 0 }, standing },
      { policy: { ...policy, version: 1.5 }, standing },
      { policy: { ...policy, version: 2 ** 60 }, standing },
      { policy: { ...policy, bodyMd: undefined }, standing },
      { policy, standing: { ...standing, state: 'late' } },
      { policy, standing: { ...standing, acceptedVersion: -1 } },
      { policy, standing: { ...standing, acceptedVersion: '1' } },
      { policy, standing: { ...standing, reviewBy: null } },
      { policy },
      { standing },
    ],
  ],
];

describe('boot parsers', () => {
  for (const [name, parser, schema, bodies] of cases) {
    it(`agree with the ${name} contract schema`, () => {
      for (const body of bodies)
        expect(outcome(parser, body), JSON.stringify(body)).toEqual(outcome(schema, body));
    });
  }
});
