import type { z } from 'zod';
import {
  isAdmin,
  isAdminOrAuditor,
  isBrmOrAdmin,
  isEmployeeBrm,
  isVendor,
  type AccountKinds,
} from './account-kinds';
import type { TokenScope } from './token-scopes';

// One call of the API, defined once: the server registers its route from it (schemas, guards),
// the web calls it through one typed caller, the tests call it, and the OpenAPI document describes
// it. This module has no zod at run time (types only): the first page may import it.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: anyone (a session is optional), or a signed-in account of the kinds named
 * (account-kinds.ts). The server guards each with the same check, in the same order: signed in
 * (401), then the kind (403).
 */
export type Callers =
  | 'anyone'
  | 'signedIn'
  | 'vendor'
  | 'vendorOrManager'
  | 'brmOrAdmin'
  | 'employeeBrm'
  | 'admin'
  /** Reports, review evidence and the audit trail: admins, and auditors who need not be admins. */
  | 'adminOrAuditor';

/** The account kinds each signed-in audience admits (an employee is neither BRM nor admin). */
export const callerKinds = {
  anyone: ['anonymous', 'vendor', 'employee', 'employeeBrm', 'admin'],
  signedIn: ['vendor', 'employee', 'employeeBrm', 'admin'],
  vendor: ['vendor'],
  vendorOrManager: ['vendor', 'employeeBrm', 'admin'],
  brmOrAdmin: ['employeeBrm', 'admin'],
  employeeBrm: ['employeeBrm'],
  admin: ['admin'],
  adminOrAuditor: ['admin', 'auditor'],
} as const satisfies Record<Callers, readonly string[]>;

/** Whether an account (null: anonymous) is among an endpoint's callers. */
export function mayCall(callers: Callers, account: AccountKinds | null): boolean {
  if (callers === 'anyone') return true;
  if (!account) return false;
  switch (callers) {
    case 'signedIn':
      return true;
    case 'vendor':
      return isVendor(account);
    case 'vendorOrManager':
      return isVendor(account) || isBrmOrAdmin(account);
    case 'brmOrAdmin':
      return isBrmOrAdmin(account);
    case 'employeeBrm':
      return isEmployeeBrm(account);
    case 'admin':
      return isAdmin(account);
    case 'adminOrAuditor':
      return isAdminOrAuditor(account);
  }
}

/** An answer that is not JSON: its media type (a text, an XML document, a CSV file). */
export interface MediaAnswer {
  readonly mediaType: string;
  readonly description: string;
}
/** A redirect for the browser (Location). */
export interface RedirectAnswer {
  readonly redirect: true;
  readonly description: string;
}
export type Answer = z.ZodType | MediaAnswer | RedirectAnswer;

/* @__NO_SIDE_EFFECTS__ */
export function media(mediaType: string, description: string): MediaAnswer {
  return { mediaType, description };
}
/* @__NO_SIDE_EFFECTS__ */
export function redirect(description: string): RedirectAnswer {
  return { redirect: true, description };
}

export function isMediaAnswer(answer: Answer): answer is MediaAnswer {
  return 'mediaType' in answer;
}
export function isRedirectAnswer(answer: Answer): answer is RedirectAnswer {
  return 'redirect' in answer;
}

/** The OpenAPI tags: one per capability. */
export type Tag =
  | 'session'
  | 'system'
  | 'registration'
  | 'activation'
  | 'recovery'
  | 'authenticator'
  | 'profile'
  | 'access'
  | 'approvals'
  | 'approval-routing'
  | 'departure'
  | 'access-reviews'
  | 'manage-users'
  | 'terminate-vendors'
  | 'administration'
  | 'governance'
  | 'activity-review'
  | 'policy-attestation'
  | 'reports';

/** What each tag groups (the OpenAPI document's tag descriptions). */
export const tagDescriptions: Record<Tag, string> = {
  session: 'Signing in and out (SAML), the session and its CSRF token, the signed-in person',
  system: 'The system message, client failure reports, the status report and this description',
  registration: 'Registering a vendor user',
  activation: 'Activating an account with its activation code',
  recovery: 'Forgot User ID and Forgot Password',
  authenticator: 'The built-in authenticator: paired phones, and the phone’s own calls',
  profile: 'A vendor’s own password',
  access: 'Manage Access: a vendor’s roles and requests',
  approvals: 'Pending approvals for BRMs and admins',
  'approval-routing': 'Away and Backup delegations, primary and backup BRMs, unreachable approvers',
  departure: 'Leaving BRMs, Transfer Responsibilities, sponsors of record',
  'access-reviews': 'Access reviews: cycles, campaigns, decisions, vendor answers, previews and evidence',
  'manage-users': 'Vendor users managed by BRMs and admins',
  'terminate-vendors': 'Terminating vendor users in bulk (employee BRMs)',
  administration:
    'Organizations, people, system message, maintenance, mail, audit trail and service tokens (admins)',
  governance: 'Risk-tier policies and the Access ending report (admins; auditors read)',
  'activity-review':
    'The weekly activity review: digests of the audit trail and their sign-off (admins; auditors read)',
  'policy-attestation':
    'The Acceptable Use Policy: versions, a vendor’s acceptance, who has not accepted and the auditors’ report',
  reports:
    'Reports for auditors: Vendor Access, Dormant and Disabled, Sign-in Strength, Review Evidence (admins and auditors)',
};

export interface Endpoint {
  readonly method: HttpMethod;
  /** The path; `:name` segments are path parameters (then `params` validates them). */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: Tag;
  readonly callers: Callers;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** Request headers the call reads (documented and typed; the handler checks them). */
  readonly headers?: z.ZodType;
  /** The body's media type when it is not JSON (the IdP's form post). */
  readonly bodyType?: 'application/x-www-form-urlencoded';
  /** The answers by status. */
  readonly response: Readonly<Partial<Record<200 | 204 | 302 | 303 | 503, Answer>>>;
  /**
   * false: a state-changing call that takes no CSRF token (the IdP's form post, client-log).
   * Every other POST, PUT, PATCH and DELETE needs the session cookie and the X-CSRF-Token header.
   */
  readonly csrf?: false;
  /** Changes accounts at the identity service: 503 while it is in maintenance. */
  readonly identityService?: true;
  /** A 2xx answer may report failures for some items (`errors` beside the successes). */
  readonly partialResults?: true;
  /**
   * The scope that lets a service token (`Authorization: Bearer pra_…`) make this call, acting as
   * the admin who made the token (token-scopes.ts). Without it the call takes sessions only.
   */
  readonly tokenScope?: TokenScope;
}

/** The `:name` segments of a path. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** A path with parameters must say how they are validated; one without must not. */
type ParamsRule<E extends Endpoint> = [PathParamNames<E['path']>] extends [never]
  ? { params?: never }
  : { params: z.ZodType<Record<PathParamNames<E['path']>, string>> };

/** Defines an endpoint, keeping its literal types (method, path, schemas) for the callers. */
/* @__NO_SIDE_EFFECTS__ */
export function endpoint<const E extends Endpoint>(definition: E & ParamsRule<E>): E {
  return definition;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

export type BodyOf<E extends Endpoint> = Out<E['body']>;
export type QueryOf<E extends Endpoint> = Out<E['query']>;
export type ParamsOf<E extends Endpoint> = Out<E['params']>;
export type HeadersOf<E extends Endpoint> = Out<E['headers']>;
/** What the call sends: the inputs of its schemas. */
export type BodyInput<E extends Endpoint> = In<E['body']>;
export type QueryInput<E extends Endpoint> = In<E['query']>;
export type ParamsInput<E extends Endpoint> = In<E['params']>;

/** The success statuses of an endpoint. */
type SuccessStatus<E extends Endpoint> = Extract<keyof E['response'], 200 | 204>;
type AnswerValue<A> = A extends z.ZodType ? z.output<A> : A extends MediaAnswer ? string : undefined;
/** The body of a successful answer, as the caller receives it. */
export type ResultOf<E extends Endpoint> = AnswerValue<E['response'][SuccessStatus<E>]>;
/** What the handler answers with (the serializer's input). */
export type ReplyOf<E extends Endpoint> = E['response'][SuccessStatus<E>] extends infer A
  ? A extends z.ZodType
    ? z.input<A>
    : never
  : never;

/** The concrete path of a call: each `:name` replaced by its (encoded) value. */
export function pathWith(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new TypeError(`Missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** A call's query parameters that are set, as strings (an empty field is no filter). */
export function queryParams(query: object | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query ?? {})
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  );
}

/** Whether a call changes state (and so needs the CSRF token unless `csrf: false`). */
export function isStateChanging(method: HttpMethod): boolean {
  return method !== 'GET';
}
