import { escapeInvisible } from '@pra/contracts';
import { afterCommit } from '../platform/after-commit';
import type { Db, Tx } from '../platform/db';
import { currentScope } from '../platform/request-scope';
import * as audit from '../store/audit';
import { announceAudit } from './audit-log';

/** Usernames are stored and logged with control, bidi and zero-width characters escaped. */
export interface AuditEvent {
  /** What happened, as `area.verb` (e.g. `signin.success`, `request.approve`). */
  action: string;
  /** `denied`: a refused attempt to act outside one's organizations. */
  outcome: 'success' | 'failure' | 'denied';
  actor?: { id: string | null; username: string } | null;
  target?: { id: string | null; username: string } | null;
  organizationId?: string | null;
  clientAddress?: string;
  /** Extra facts; never passwords, codes, tokens, session ids or SAML documents. */
  details?: Record<string, string | number | boolean | null>;
}

/**
 * Appends an audit event; call it inside the transaction of the change it records. Once that
 * transaction commits (at once for a statement outside one) the event is also logged for the
 * SIEM and counted in the metrics; a rolled-back event is neither.
 */
export async function recordAudit(db: Db | Tx, given: AuditEvent): Promise<void> {
  const event = attributed(given);
  await audit.append(db, auditRow(event));
  afterCommit(db, () => announceAudit(event));
}

/** Appends many events in as few statements as can carry them; each is announced once they commit. */
export async function recordAudits(db: Db | Tx, events: readonly AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  await audit.appendMany(db, events.map(auditRow));
  afterCommit(db, () => {
    for (const event of events) announceAudit(event);
  });
}

/**
 * The event with the service token of the request it happens in, if any (`tokenId`, `tokenName`
 * in its details, beside the token's admin as actor): what automation did is told apart from what
 * the admin did in the browser.
 */
export function attributed(event: AuditEvent): AuditEvent {
  const token = currentScope().serviceToken;
  if (!token) return event;
  return { ...event, details: { ...event.details, tokenId: token.id, tokenName: token.name } };
}

/**
 * The audit_events row for an event, for a statement that writes it together with the change it
 * records; call `announceAudit(event)` once that statement has committed.
 */
export function auditRow(event: AuditEvent): audit.NewAuditRow {
  return {
    action: event.action,
    outcome: event.outcome,
    actor_id: event.actor?.id ?? null,
    actor_username: escapeInvisible(event.actor?.username ?? ''),
    target_id: event.target?.id ?? null,
    target_username: escapeInvisible(event.target?.username ?? ''),
    organization_id: event.organizationId ?? null,
    client_address: (event.clientAddress ?? '').slice(0, 100),
    details: JSON.stringify(event.details ?? {}),
  };
}

/**
 * Runs a use case whose refusal must be audited although its transaction rolls back: `deny`
 * notes the refused attempt (outcome `denied`) just before the use case throws, and the note is
 * written after the rollback, in its own statement.
 */
export async function auditingDenials<T>(
  db: Db,
  work: (deny: (event: Omit<AuditEvent, 'outcome'>) => void) => Promise<T>,
): Promise<T> {
  let denied: AuditEvent | null = null;
  try {
    return await work((event) => {
      denied = { ...event, outcome: 'denied' };
    });
  } catch (error) {
    if (denied) await recordAudit(db, denied);
    throw error;
  }
}
