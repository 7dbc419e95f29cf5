import { escapeInvisible } from '@pra/contracts';
import { observeAudit } from '../platform/metrics';
import { currentScope } from '../platform/request-scope';
import type { AuditEvent } from './audit';

/**
 * One JSON log line per committed audit event, for the SIEM: `event: "audit"` and the facts an
 * analyst filters on. The event's fields never hold secrets (see AuditEvent.details), and the
 * logger's redaction still applies on top.
 */
export function auditLogLine(event: AuditEvent, requestId: string | null): Record<string, unknown> {
  return {
    event: 'audit',
    action: event.action,
    outcome: event.outcome,
    actor: event.actor ? escapeInvisible(event.actor.username) : null,
    actorId: event.actor?.id ?? null,
    target: event.target ? escapeInvisible(event.target.username) : null,
    targetId: event.target?.id ?? null,
    organization: event.organizationId ?? null,
    clientAddress: event.clientAddress ?? null,
    requestId,
    details: event.details ?? {},
  };
}

/** Tells the log and the metrics about an audit event whose row has been committed. */
export function announceAudit(event: AuditEvent): void {
  observeAudit(event);
  const { log, requestId } = currentScope();
  log?.info(auditLogLine(event, requestId), `audit ${event.action} ${event.outcome}`);
}
