import { describe, expect, it } from 'vitest';
import { authStatusResponse, csrfResponse, currentUser, systemMessage } from '@pra/contracts';
import { makeUser } from '../test/fake-server';
import { authStatusBody, csrfBody, currentUserBody, systemMessageBody } from './boot-parsers';
import type { ResponseParser } from './client';

const outcome = (parser: ResponseParser<unknown>, body: unknown) => {
  try {
    return { ok: parser.parse(body) };
  } catch {
    return 'refused';
  }
};

const user = makeUser({ orgs: ['Acme Imaging', 'Beta Labs'] });

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
];

describe('boot parsers', () => {
  for (const [name, parser, schema, bodies] of cases) {
    it(`agree with the ${name} contract schema`, () => {
      for (const body of bodies)
        expect(outcome(parser, body), JSON.stringify(body)).toEqual(outcome(schema, body));
    });
  }
});
