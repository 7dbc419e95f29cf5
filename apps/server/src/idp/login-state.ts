import { z } from 'zod';
import type { Session } from '../http/session';
import { setSessionValue } from '../http/session';
import type { Db } from '../platform/db';
import type { AppContext } from '../platform/app-context';

/** How long a started sign-in may take before it has to be started again from the portal. */
export const LOGIN_STATE_MINUTES = 15;

/**
 * The built-in IdP's progress for one sign-in, kept in the session row (`data.idp`) so that any
 * instance can continue what another started. The pending TOTP secret is stored encrypted.
 */
const loginStateSchema = z.object({
  requestId: z.string(),
  relayState: z.string().nullable(),
  /** The SP's RequestedAuthnContext: the methods offered, and the answer, must meet it. */
  requestedAuthnContext: z
    .object({
      classRefs: z.array(z.string()),
      comparison: z.enum(['exact', 'minimum', 'maximum', 'better']),
    })
    .optional(),
  startedAt: z.number(),
  stage: z.enum(['password', 'mfa']),
  accountId: z.string().optional(),
  pendingSecretEncrypted: z.string().optional(),
  /** A security key or passkey was enrolled in this sign-in: it may continue without another step. */
  keyEnrolled: z.boolean().optional(),
  /** A passcode or push passed during the grace: the "Add One Now" interstitial waits for a choice. */
  passedWith: z.enum(['totp', 'push']).optional(),
  /**
   * The key policy the passcode page read (GOVERNANCE.md §7.4), for the passcode or push that
   * follows: read once per sign-in (key-policy.ts's keptKeyPolicy says why that is safe).
   */
  keyPolicy: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('mfa') }),
      z.object({ kind: z.literal('grace'), organizationName: z.string(), until: z.number() }),
      z.object({ kind: z.literal('keysOnly'), organizationName: z.string() }),
    ])
    .optional(),
});
export type LoginState = z.infer<typeof loginStateSchema>;

/** The session's sign-in in progress, or null when there is none or it is too old. */
export function readLoginState(ctx: Pick<AppContext, 'clock'>, session: Session | null): LoginState | null {
  const parsed = loginStateSchema.safeParse(session?.data.idp);
  if (!parsed.success) return null;
  if (ctx.clock.now().getTime() - parsed.data.startedAt > LOGIN_STATE_MINUTES * 60_000) return null;
  return parsed.data;
}

/** Saves (or with null, clears) the sign-in progress, keeping the session's other data. */
export async function writeLoginState(db: Db, session: Session, state: LoginState | null): Promise<void> {
  await setSessionValue(db, session, 'idp', state ?? undefined);
}
