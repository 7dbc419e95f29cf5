import { z } from 'zod';
import { isPlainText } from './text-fields';
import { tokenScopes, type TokenScope } from './token-scopes';

export * from './token-scopes';

/** The longest a service token's name may be. */
export const TOKEN_NAME_MAX = 100;
/** The furthest a service token's expiry may lie ahead, in days. */
export const TOKEN_MAX_DAYS = 366;

/** The texts of service tokens, shared by the API, the CLI and the screen. */
export const tokenMessages = {
  nameRequired: 'Give the token a name (what the automation is, e.g. "nightly HR sync").',
  nameTooLong: `A token name has at most ${TOKEN_NAME_MAX} characters.`,
  nameCharacters: 'A token name cannot hold line breaks, tabs or invisible formatting characters.',
  scopesRequired: 'Choose at least one scope.',
  unknownScope: (scope: unknown) =>
    `Unknown scope ${JSON.stringify(scope)}. The scopes are: ${tokenScopes.join(', ')}.`,
  duplicateScope: 'Each scope may be given once.',
  expiryFormat: 'The expiry must be a date and time with its offset, like 2026-12-31T23:59:59Z.',
  expiryPast: 'The expiry must be in the future.',
  expiryTooFar: `A service token expires at most ${TOKEN_MAX_DAYS} days from now: choose an earlier expiry.`,
  notFound: 'Service token not found.',
  ownerMustBeAdmin: (username: string) =>
    `A service token acts as an active admin, and "${username}" is not one.`,
  terminateNeedsBrm: (username: string) =>
    `vendors:terminate needs an admin who is also an employee BRM, and "${username}" is not one.`,
  alreadyRevoked: 'This service token is already revoked.',
  // The bearer refusals (401, with WWW-Authenticate: Bearer error="invalid_token").
  invalid: 'The service token is not valid.',
  revoked: 'The service token has been revoked.',
  expired: 'The service token has expired.',
  ownerNotAdmin: 'The service token no longer works: the admin it belongs to is no longer an active admin.',
  // The bearer refusals (403, error="insufficient_scope").
  notForTokens: 'This call cannot be made with a service token: sign in instead.',
  missingScope: (scope: TokenScope) => `The service token lacks the scope this call needs (${scope}).`,
} as const;

const scope = z.enum(tokenScopes as [TokenScope, ...TokenScope[]], {
  error: (issue) => tokenMessages.unknownScope(issue.input),
});

export const createServiceTokenBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, tokenMessages.nameRequired)
    .max(TOKEN_NAME_MAX, tokenMessages.nameTooLong)
    .refine(isPlainText, tokenMessages.nameCharacters),
  scopes: z
    .array(scope)
    .min(1, tokenMessages.scopesRequired)
    .max(tokenScopes.length)
    .refine((list) => new Set(list).size === list.length, tokenMessages.duplicateScope),
  /** When it stops working (the server refuses one in the past or too far ahead). */
  expiresAt: z.iso.datetime({ offset: true, error: tokenMessages.expiryFormat }),
});
export type CreateServiceTokenBody = z.input<typeof createServiceTokenBody>;

/** active; revoked; expired; ownerInactive: its admin is no longer an active admin. */
export const tokenStatus = z.enum(['active', 'revoked', 'expired', 'ownerInactive']);
export type TokenStatus = z.infer<typeof tokenStatus>;

export const serviceToken = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  /** Who made it: an admin's username, or `cli:<user>` for the operators' CLI. */
  createdBy: z.string(),
  /** The admin the token acts as (who made it on the screen; named when made with the CLI). */
  owner: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  status: tokenStatus,
});
export type ServiceTokenView = z.infer<typeof serviceToken>;
export const serviceTokenList = z.object({ tokens: z.array(serviceToken) });

/** The answer to a creation: the token itself, this once and never again. */
export const createdServiceToken = z.object({
  success: z.literal(true),
  id: z.string(),
  token: z.string(),
  expiresAt: z.string(),
});
