// Hand-written checks for the answers the first page waits for (CSRF token, auth status, system
// message, and the current user that a signed-in page's boot data carries), so the first page does
// not load the schema library; and for those Manage Profile asks for on arrival (the password
// rules, the paired phones, the security keys, the sponsors, the Acceptable Use Policy), so that
// page loads it only once someone acts. Each mirrors its contract schema in
// @pra/contracts; boot-parsers.test.ts runs both over the same bodies to keep them in step.
import type {
  AuthStatusResponse,
  CsrfResponse,
  CurrentUser,
  MyAup,
  MySponsors,
  PairedAuthenticators,
  PasswordRequirements,
  SecurityKeyList,
  SystemMessage,
} from '@pra/contracts';
import type { ResponseParser } from './client';

type Body = Record<string, unknown>;

function object(data: unknown): Body {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new TypeError('Expected an object');
  return data as Body;
}

function field<T>(body: Body, key: string, check: (value: unknown) => value is T, what: string): T {
  const value = body[key];
  if (!check(value)) throw new TypeError(`${key}: expected ${what}`);
  return value;
}

/** `body[key]` as a list of objects, each read by `each`. */
function listOf<T>(body: Body, key: string, each: (entry: Body) => T): T[] {
  const list = body[key];
  if (!Array.isArray(list)) throw new TypeError(`${key}: expected a list`);
  return list.map((entry) => each(object(entry)));
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
/** zod's z.iso.datetime(): UTC with a Z, optional fraction, no offset. */
const isIsoDateTime = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z$/.test(value) &&
  !isNaN(Date.parse(value));
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);
const ACCOUNT_TYPES = ['vendor', 'employee'] as const;
const isAccountType = (value: unknown): value is CurrentUser['type'] =>
  ACCOUNT_TYPES.includes(value as CurrentUser['type']);
const SEVERITIES = ['info', 'success', 'warning', 'danger'] as const;
const isSeverity = (value: unknown): value is SystemMessage['severity'] =>
  SEVERITIES.includes(value as SystemMessage['severity']);

/** GET /api/csrf */
export const csrfBody: ResponseParser<CsrfResponse> = {
  parse: (data) => ({ csrfToken: field(object(data), 'csrfToken', isString, 'a string') }),
};

/** GET /api/saml/is-authenticated */
export const authStatusBody: ResponseParser<AuthStatusResponse> = {
  parse(data) {
    const body = object(data);
    const status: AuthStatusResponse = {
      isAuthenticated: field(body, 'isAuthenticated', isBoolean, 'a boolean'),
    };
    if (body.expires !== undefined)
      status.expires = field(body, 'expires', isIsoDateTime, 'an ISO date-time');
    if (body.remainingSessionExtentions !== undefined) {
      status.remainingSessionExtentions = field(body, 'remainingSessionExtentions', isCount, 'a count');
    }
    return status;
  },
};

/** GET /api/system/message */
export const systemMessageBody: ResponseParser<SystemMessage> = {
  parse(data) {
    const body = object(data);
    return {
      enabled: field(body, 'enabled', isBoolean, 'a boolean'),
      loggedInOnly: field(body, 'loggedInOnly', isBoolean, 'a boolean'),
      severity: field(body, 'severity', isSeverity, SEVERITIES.join('|')),
      title: field(body, 'title', isString, 'a string'),
      text: field(body, 'text', isString, 'a string'),
    };
  },
};

/** GET /api/user */
export const currentUserBody: ResponseParser<CurrentUser> = {
  parse(data) {
    const body = object(data);
    const text = (key: string) => field(body, key, isString, 'a string');
    const flag = (key: string) => field(body, key, isBoolean, 'a boolean');
    return {
      id: text('id'),
      username: text('username'),
      givenName: text('givenName'),
      familyName: text('familyName'),
      jobTitle: text('jobTitle'),
      isActive: flag('isActive'),
      email: text('email'),
      manager: text('manager'),
      orgs: [...field(body, 'orgs', isStrings, 'strings')],
      isEmployeeBrm: flag('isEmployeeBrm'),
      isAdmin: flag('isAdmin'),
      loginUrl: text('loginUrl'),
      type: field(body, 'type', isAccountType, ACCOUNT_TYPES.join('|')),
      iiqAvailable: flag('iiqAvailable'),
      // Governance's read-only auditor (additive: an older server leaves it out).
      ...(typeof body.isAuditor === 'boolean' ? { isAuditor: body.isAuditor } : {}),
      ...(body.mustAcceptAup === true ? { mustAcceptAup: true } : {}),
    };
  },
};

const isInteger = (value: unknown): value is number => Number.isInteger(value);
const COMPLEXITY = [
  'maxRepeatChars',
  'minAlpha',
  'minLength',
  'minUpperAlpha',
  'minLowerAlpha',
  'minSpecialChars',
  'maxLength',
  'minCharTypes',
  'minNumeric',
] as const;

/** GET /api/user/auth/password-requirements */
export const passwordRequirementsBody: ResponseParser<PasswordRequirements> = {
  parse(data) {
    const body = object(data);
    const complexity = object(body.Password_Complexity);
    return {
      status: field(body, 'status', (value): value is 'success' => value === 'success', "'success'"),
      Password_Complexity: Object.fromEntries(
        COMPLEXITY.map((key) => [key, field(complexity, key, isInteger, 'a whole number')]),
      ) as PasswordRequirements['Password_Complexity'],
      blockedTerms: [...field(body, 'blockedTerms', isStrings, 'strings')],
      rejectCommonPasswords: field(body, 'rejectCommonPasswords', isBoolean, 'a boolean'),
    };
  },
};

/** GET /api/user/authenticators */
export const pairedAuthenticatorsBody: ResponseParser<PairedAuthenticators> = {
  parse(data) {
    const body = object(data);
    const authenticators = listOf(body, 'authenticators', (phone) => ({
      id: field(phone, 'id', isString, 'a string'),
      nickname: field(phone, 'nickname', isString, 'a string'),
      pairedAt: field(phone, 'pairedAt', isString, 'a string'),
      isRecent: field(phone, 'isRecent', isBoolean, 'a boolean'),
    }));
    return { needsPasscode: field(body, 'needsPasscode', isBoolean, 'a boolean'), authenticators };
  },
};

const isKeyType = (value: unknown): value is SecurityKeyList['keys'][number]['type'] =>
  value === 'thisDevice' || value === 'synced';
const isNullableString = (value: unknown): value is string | null => value === null || isString(value);

/** GET /api/user/security-keys (Manage Profile's Sign-in methods card asks on arrival). */
export const securityKeyListBody: ResponseParser<SecurityKeyList> = {
  parse(data) {
    const body = object(data);
    return {
      keys: listOf(body, 'keys', (key) => ({
        id: field(key, 'id', isString, 'a string'),
        nickname: field(key, 'nickname', isString, 'a string'),
        addedAt: field(key, 'addedAt', isString, 'a string'),
        lastUsedAt: field(key, 'lastUsedAt', isNullableString, 'a string or null'),
        type: field(key, 'type', isKeyType, '"thisDevice" or "synced"'),
      })),
      authenticatorApp: field(body, 'authenticatorApp', isNullableString, 'a string or null'),
      required: field(body, 'required', isBoolean, 'a boolean'),
      requiredBy: field(body, 'requiredBy', isNullableString, 'a string or null'),
      needsKeyConfirmation: field(body, 'needsKeyConfirmation', isBoolean, 'a boolean'),
      max: field(body, 'max', Number.isInteger as (value: unknown) => value is number, 'an integer'),
    };
  },
};

/** GET /api/profile/sponsors */
export const mySponsorsBody: ResponseParser<MySponsors> = {
  parse: (data) => ({
    sponsors: listOf(object(data), 'sponsors', (sponsor) => ({
      organization: field(sponsor, 'organization', isString, 'a string'),
      name: field(sponsor, 'name', isNullableString, 'a string or null'),
      email: field(sponsor, 'email', isNullableString, 'a string or null'),
    })),
  }),
};

/** zod's z.number().int(): a safe integer. */
const isSafeWhole = (value: unknown): value is number => Number.isSafeInteger(value);
const isVersion = (value: unknown): value is number => isSafeWhole(value) && value >= 1;
const isNullableWhole = (value: unknown): value is number | null => value === null || isSafeWhole(value);
const AUP_STATES = ['current', 'due', 'overdue'] as const;
const isAupState = (value: unknown): value is MyAup['standing']['state'] =>
  AUP_STATES.includes(value as MyAup['standing']['state']);

/** GET /api/vendor/aup */
export const myAupBody: ResponseParser<MyAup> = {
  parse(data) {
    const body = object(data);
    const policy = object(body.policy);
    const standing = object(body.standing);
    return {
      policy: {
        version: field(policy, 'version', isVersion, 'a whole number from 1'),
        title: field(policy, 'title', isString, 'a string'),
        bodyMd: field(policy, 'bodyMd', isString, 'a string'),
        effectiveOn: field(policy, 'effectiveOn', isString, 'a string'),
        sha256: field(policy, 'sha256', isString, 'a string'),
        publishedAt: field(policy, 'publishedAt', isString, 'a string'),
        publishedBy: field(policy, 'publishedBy', isNullableString, 'a string or null'),
      },
      standing: {
        state: field(standing, 'state', isAupState, 'current, due or overdue'),
        acceptedVersion: field(standing, 'acceptedVersion', isNullableWhole, 'a whole number or null'),
        acceptedOn: field(standing, 'acceptedOn', isNullableString, 'a string or null'),
        dueOn: field(standing, 'dueOn', isString, 'a string'),
        blocksAfter: field(standing, 'blocksAfter', isString, 'a string'),
        reviewBy: field(standing, 'reviewBy', isString, 'a string'),
      },
    };
  },
};
