import { roleName } from '@pra/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db';
import { unavailableReason } from '../../platform/db-errors';
import { OutageLog } from '../../platform/outage-log';
import {
  accountForDirectory,
  claimDueProvisioning,
  finishProvisioning,
  makeProvisioningDue,
  markProvisioningRetry,
  organizationName,
  readProvisioningState,
  releaseProvisioningClaims,
  type ProvisioningRow,
} from '../../store/provisioning';
import { backoffSeconds } from '../outbox-worker';
import { DirectoryUnavailableError, type IdentityStore } from '../../platform/directory/identity-store';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * Makes the directory hold the row's subject as the portal has it now: an organization's group,
 * or an account's names, groups (exactly its granted roles) and enabled state; a terminated
 * account loses its groups, is disabled and moved. Applying the current state (not the change
 * that queued the row) is what makes a row applied twice, or late, have one effect.
 */
export async function applyProvisioning(db: Db, store: IdentityStore, row: ProvisioningRow): Promise<void> {
  if (row.organization_id) {
    const name = await organizationName(db, row.organization_id);
    if (name) await store.ensureGroup(roleName(name));
    return;
  }
  if (!row.account_id) return;
  const account = await accountForDirectory(db, row.account_id);
  if (!account || account.type !== 'vendor') return;
  if (account.status === 'terminated') {
    await store.terminate(account.username);
    return;
  }
  await store.ensureAccount({
    username: account.username,
    givenName: account.given_name,
    familyName: account.family_name,
    email: account.email,
  });
  await store.setRoles(account.username, account.organizationNames.map(roleName));
  await store.setEnabled(account.username, account.status === 'active');
}

export interface ProvisioningRound {
  applied: number;
  failed: number;
  /** The directory could not be reached: the rest of the round was not tried. */
  unavailable: string | null;
  more: boolean;
}

/** Applies what is due, in the order it was queued; a directory that is down ends the round. */
export async function applyDueProvisioning(
  db: Db,
  store: IdentityStore,
  clock: Clock,
  options: { batchSize?: number; signal?: AbortSignal; log?: Log; inFlight?: Set<string> } = {},
): Promise<ProvisioningRound> {
  const batchSize = options.batchSize ?? 50;
  const round: ProvisioningRound = { applied: 0, failed: 0, unavailable: null, more: false };
  const rows = await claimDueProvisioning(db, batchSize, clock.now());
  const left = [...rows];
  while (left.length > 0 && !options.signal?.aborted && !round.unavailable) {
    const row = left.shift() as ProvisioningRow;
    options.inFlight?.add(row.id);
    try {
      await applyProvisioning(db, store, row);
      await finishProvisioning(db, row.id, clock.now());
      round.applied += 1;
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (!(error instanceof DirectoryUnavailableError) && unavailableReason(error)) throw error;
      const attempts = row.attempts + 1;
      await markProvisioningRetry(db, row.id, {
        attempts,
        at: new Date(clock.now().getTime() + backoffSeconds(attempts) * 1000),
        error: text.slice(0, 500),
      });
      round.failed += 1;
      if (error instanceof DirectoryUnavailableError) round.unavailable = text;
      else
        options.log?.warn(
          { provisioningId: row.id, action: row.action, attempts, error: text },
          'directory refused a change; will retry',
        );
    } finally {
      options.inFlight?.delete(row.id);
    }
  }
  await releaseProvisioningClaims(
    db,
    left.map((r) => r.id),
  );
  round.more = rows.length === batchSize && !round.unavailable;
  return round;
}

export interface ProvisioningWorker {
  stop(withinMs?: number): Promise<void>;
  /** Runs a round soon (after a commit that queued a row), instead of at the next interval. */
  nudge(): void;
}

/** While rows wait for the directory, its health is asked this often; when it answers they are due. */
const PROBE_MS = 2_000;
const OUTAGE_LINE_MS = 60_000;

/**
 * Applies the provisioning outbox in every instance (the mail outbox's sibling): every
 * `intervalMs`, at once again while a backlog drains, and retried forever at a capped backoff; a
 * directory that comes back makes every waiting row due at once.
 */
export function startProvisioningWorker(
  db: Db,
  store: IdentityStore,
  clock: Clock,
  options: { intervalMs?: number; log?: Log } = {},
): ProvisioningWorker {
  const intervalMs = options.intervalMs ?? 1_000;
  const controller = new AbortController();
  const inFlight = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  let lastProbe = -Infinity;
  const outage = new OutageLog('provisioning: directory unavailable; changes kept for retry', OUTAGE_LINE_MS);
  const dbOutage = new OutageLog('provisioning: database unavailable; will retry', OUTAGE_LINE_MS);

  const probe = async (): Promise<boolean> => {
    if (performance.now() - lastProbe < PROBE_MS) return false;
    lastProbe = performance.now();
    const state = await readProvisioningState(db, clock.now());
    if (state.failing === 0) return false;
    if (!(await store.health()).ok) return false;
    return (await makeProvisioningDue(db, clock.now())) > 0;
  };

  const tick = () => {
    busy = true;
    running = applyDueProvisioning(db, store, clock, {
      signal: controller.signal,
      log: options.log,
      inFlight,
    })
      .then(async (round) => {
        if (options.log) {
          dbOutage.recovered(options.log, 'provisioning: database reachable again');
          if (round.unavailable) outage.failed(options.log, round.unavailable);
          else if (round.applied > 0)
            outage.recovered(options.log, 'provisioning: directory reachable again');
        }
        if (round.more) return 0;
        if (!round.unavailable && !controller.signal.aborted && (await probe())) return 0;
        return intervalMs;
      })
      .catch((error: unknown) => {
        const reason = unavailableReason(error);
        if (options.log) {
          if (reason) dbOutage.failed(options.log, reason);
          else options.log.error({ err: error }, 'provisioning round failed; will retry');
        }
        return intervalMs;
      })
      .then((delay) => {
        busy = false;
        if (!controller.signal.aborted) timer = setTimeout(tick, delay);
      });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    nudge() {
      if (busy || controller.signal.aborted) return;
      clearTimeout(timer);
      timer = setTimeout(tick, 0);
    },
    async stop(withinMs = 10_000) {
      controller.abort();
      clearTimeout(timer);
      let deadline: NodeJS.Timeout | undefined;
      await Promise.race([
        running,
        new Promise<void>((resolve) => {
          deadline = setTimeout(resolve, withinMs);
        }),
      ]);
      clearTimeout(deadline);
      if (inFlight.size > 0) await releaseProvisioningClaims(db, [...inFlight]).catch(() => {});
    },
  };
}
