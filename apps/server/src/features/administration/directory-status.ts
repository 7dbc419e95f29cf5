import { adminMessages } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { recordAudit } from '../../identity/audit';
import {
  lastDirectoryReport,
  listFailingProvisioning,
  readProvisioningState,
  retryProvisioningNow,
} from '../../store/provisioning';
import type { Actor } from './actor';

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * The identity store as admins see it, beside undelivered mail: whether the directory answers,
 * how many changes wait, the ones that failed at least once with the directory's reason, and the
 * last reconciliation's report.
 */
export async function directoryStatus(ctx: AppContext) {
  const [health, state, failing, report] = await Promise.all([
    ctx.identityStore.health(),
    readProvisioningState(ctx.db, ctx.clock.now()),
    listFailingProvisioning(ctx.db),
    lastDirectoryReport(ctx.db),
  ]);
  return {
    identityStore: ctx.identityStore.kind,
    available: health.ok,
    pending: state.pending,
    failing: failing.map((row) => ({
      id: row.id,
      createdAt: iso(row.created_at),
      action: row.action,
      username: row.username,
      organization: row.organization,
      attempts: row.attempts,
      nextAttemptAt: iso(row.next_attempt_at),
      lastError: row.last_error,
    })),
    lastReport: report
      ? {
          createdAt: iso(report.created_at),
          drift: report.drift,
          applied: report.applied,
          report: report.report,
        }
      : null,
  };
}

/** A waiting directory change is tried again now (the worker takes it at its next round), audited. */
export async function retryProvisioning(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  if (!(await retryProvisioningNow(ctx.db, id, ctx.clock.now()))) {
    throw new AppError('notFound', adminMessages.provisioningNotFound);
  }
  await recordAudit(ctx.db, {
    action: 'provisioning.retry',
    outcome: 'success',
    actor,
    clientAddress: actor.clientAddress,
    details: { provisioningId: id },
  });
}
