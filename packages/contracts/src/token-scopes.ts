/**
 * What a service token may do: one scope per capability and access (`:read` for its GET calls,
 * `:write` for the calls that change something), in two families. The admin family covers the
 * Administration calls, the BRM family the calls BRMs (and admins) make for the vendors they
 * manage. An endpoint names the scope that admits a token (`tokenScope` in endpoint.ts); an
 * endpoint without one (sign-in, the session, passwords, second factors, the profile, the tokens
 * themselves) never accepts a token. Zod-free: endpoint.ts imports it.
 */
export const tokenScopeDescriptions = {
  'organizations:read': 'List organizations, their email domains and BRMs',
  'organizations:write': 'Create, rename, activate or deactivate organizations; add and remove domains',
  'people:read': 'List the hospital’s people and their rights',
  'people:write': 'Add, change and remove people, their BRM and admin rights and organizations',
  'settings:read': 'Read the system message, whether maintenance is on, and the governance policies',
  'settings:write': 'Save the system message; switch maintenance on or off; change the governance policies',
  'mail:read': 'List undelivered mail',
  'mail:write': 'Send undelivered mail again',
  'directory:read': 'List the directory changes waiting or failing and the last reconciliation',
  'directory:write': 'Try a waiting directory change again',
  'audit:read': 'Read and export the audit trail',
  'reports:read':
    'Read and export the governance reports (access ending, vendor access, dormant, sponsorship, sign-in strength, Acceptable Use Policy, weekly activity reviews)',
  'reports:write': 'Mark a weekly activity review reviewed, with a note',
  'approvals:read': 'List pending approvals',
  'approvals:write': 'Approve or deny registrations and access requests',
  'users:read': 'List the vendor users managed',
  'users:write': 'Enable or disable vendor users, resend activation mail, reset activation codes',
  'access:read': 'Read a vendor’s roles, pending requests and requestable roles',
  'access:write': 'Request, remove or cancel a vendor’s access',
  'reviews:read': 'List the access reviews to decide and their items',
  'reviews:write': 'Decide access review items (keep, keep until, remove)',
  'review-cycles:read': 'List review cycles and campaigns, preview their default action, download evidence',
  'review-cycles:write': 'Start, remind, close or cancel access reviews',
  'vendors:read': 'Follow the bulk termination jobs the token started',
  'vendors:terminate': 'Terminate vendor users in bulk (only when the token’s admin is also an employee BRM)',
} as const;

export type TokenScope = keyof typeof tokenScopeDescriptions;

/** Every scope, in the order the screens and the OpenAPI document list them. */
export const tokenScopes = Object.keys(tokenScopeDescriptions) as TokenScope[];

/** The two families, for grouping on the screen. */
export const tokenScopeFamilies: Record<'admin' | 'brm', readonly TokenScope[]> = {
  admin: tokenScopes.filter((s) =>
    /^(organizations|people|settings|mail|directory|audit|reports|review-cycles):/.test(s),
  ),
  brm: tokenScopes.filter((s) => /^(approvals|users|access|vendors|reviews):/.test(s)),
};

/** What a token is sent with: `Authorization: Bearer pra_…`. */
export const SERVICE_TOKEN_PREFIX = 'pra_';
