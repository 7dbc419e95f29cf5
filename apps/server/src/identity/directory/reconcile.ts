import { roleName } from '@pra/contracts';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db';
import type { IdentityStore } from '../../platform/directory/identity-store';
import { observeDirectoryDrift } from '../../platform/metrics';
import { insertDirectoryReport, vendorsForDirectory } from '../../store/provisioning';
import { recordAudit } from '../audit';
import { applyAccountState, type PortalVendor } from './provisioning-worker';

/** One difference between the portal and the directory. */
export interface DriftItem {
  kind: 'unexpectedMember' | 'missingMember' | 'enabledMismatch' | 'missingInDirectory' | 'missingInPortal';
  /** The account (null for a group member that is no account of the vendors' OU). */
  username: string | null;
  group?: string;
  memberDn?: string;
  portal?: string;
  directory?: string;
}

export interface DriftReport {
  checkedAt: string;
  applied: boolean;
  drift: number;
  items: DriftItem[];
}

/**
 * Compares every vendor of the portal with the directory's accounts and portal-managed groups:
 * members the portal did not grant, granted ones missing, enabled in one and disabled in the other,
 * accounts missing on either side. With `apply`, makes the directory match the portal (each
 * drifting vendor's whole state applied again; a hand-made member taken out of the group; an
 * account the portal does not know loses its portal groups, nothing more), audited as
 * `directory.reconcile`. The report is kept (admins see the last one) and sets pra_directory_drift.
 */
export async function reconcileDirectory(
  db: Db,
  store: IdentityStore,
  clock: Clock,
  options: { apply: boolean; actor: { id: string | null; username: string }; clientAddress?: string },
): Promise<DriftReport> {
  const vendors = await vendorsForDirectory(db);
  const accounts = await store.listAccounts();
  const groups = await store.listGroups();
  const inDirectory = new Map(accounts.map((a) => [a.username.toLowerCase(), a]));
  const known = new Set(vendors.map((v) => v.username.toLowerCase()));
  const accountDns = new Set(accounts.map((a) => a.dn));
  const items: DriftItem[] = [];
  const drifting = new Map<string, PortalVendor>();
  const note = (vendor: PortalVendor, item: DriftItem) => {
    items.push(item);
    drifting.set(vendor.username, vendor);
  };

  for (const vendor of vendors) {
    const found = inDirectory.get(vendor.username.toLowerCase());
    if (!found) {
      if (vendor.status === 'active' || vendor.status === 'disabled') {
        note(vendor, { kind: 'missingInDirectory', username: vendor.username, portal: vendor.status });
      }
      continue;
    }
    const enabled = vendor.status === 'active';
    if (found.enabled !== enabled) {
      note(vendor, {
        kind: 'enabledMismatch',
        username: vendor.username,
        portal: vendor.status,
        directory: found.enabled ? 'enabled' : 'disabled',
      });
    }
    const wanted = new Set(vendor.status === 'terminated' ? [] : vendor.organizationNames.map(roleName));
    for (const group of found.groups) {
      if (!wanted.has(group)) note(vendor, { kind: 'unexpectedMember', username: vendor.username, group });
    }
    for (const group of wanted) {
      if (!found.groups.includes(group))
        note(vendor, { kind: 'missingMember', username: vendor.username, group });
    }
  }
  const strangers = accounts.filter((a) => !known.has(a.username.toLowerCase()));
  for (const stranger of strangers) {
    items.push({
      kind: 'missingInPortal',
      username: stranger.username,
      directory: stranger.enabled ? 'enabled' : 'disabled',
    });
  }
  const handMade: { group: string; dn: string }[] = [];
  for (const [group, members] of groups) {
    for (const dn of members) {
      if (accountDns.has(dn)) continue;
      handMade.push({ group, dn });
      items.push({ kind: 'unexpectedMember', username: null, group, memberDn: dn });
    }
  }

  if (options.apply) {
    for (const vendor of drifting.values()) await applyAccountState(store, vendor);
    for (const stranger of strangers)
      if (stranger.groups.length > 0) await store.setRoles(stranger.username, []);
    for (const { group, dn } of handMade) await store.removeMember(group, dn);
  }
  const report: DriftReport = {
    checkedAt: clock.now().toISOString(),
    applied: options.apply,
    drift: items.length,
    items,
  };
  const counts = Object.fromEntries(
    ['unexpectedMember', 'missingMember', 'enabledMismatch', 'missingInDirectory', 'missingInPortal'].map(
      (kind) => [kind, items.filter((i) => i.kind === kind).length],
    ),
  );
  await db.transaction().execute(async (tx) => {
    await insertDirectoryReport(tx, {
      createdAt: clock.now(),
      drift: items.length,
      applied: options.apply,
      report,
    });
    if (options.apply || items.length > 0) {
      await recordAudit(tx, {
        action: 'directory.reconcile',
        outcome: 'success',
        actor: options.actor,
        clientAddress: options.clientAddress ?? 'system',
        details: { applied: options.apply, drift: items.length, ...counts },
      });
    }
  });
  // What is left: nothing once applied (a failure above throws before this).
  observeDirectoryDrift(options.apply ? 0 : items.length);
  return report;
}

/** The report as the CLI prints it. */
export function formatDriftReport(report: DriftReport): string {
  const lines = [
    `Directory reconciliation at ${report.checkedAt}: ${report.drift === 0 ? 'no drift' : `${report.drift} difference(s)`}${report.applied ? ' (applied: the directory now matches the portal)' : report.drift > 0 ? ' (dry run: --apply repairs them)' : ''}.`,
  ];
  for (const item of report.items) {
    const who = item.username ?? item.memberDn ?? '?';
    switch (item.kind) {
      case 'unexpectedMember':
        lines.push(`  member the portal did not grant: ${who} in "${item.group}"`);
        break;
      case 'missingMember':
        lines.push(`  granted but not a member: ${who} in "${item.group}"`);
        break;
      case 'enabledMismatch':
        lines.push(`  ${who}: ${item.portal} in the portal, ${item.directory} in the directory`);
        break;
      case 'missingInDirectory':
        lines.push(`  ${who}: ${item.portal} in the portal, no account in the directory`);
        break;
      case 'missingInPortal':
        lines.push(`  ${who}: in the directory's vendors OU (${item.directory}), unknown to the portal`);
        break;
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The scheduled dry run (DIRECTORY_RECONCILE_HOURS, default daily; the first a minute after the
 * start): keeps the last report for admins and pra_directory_drift current. Repairs are an
 * operator's decision (`admin directory-reconcile --apply`).
 */
export function startReconcileSchedule(
  db: Db,
  store: IdentityStore,
  clock: Clock,
  hours: number,
  log: { info(o: object, m: string): void; warn(o: object, m: string): void },
): { stop(): void } {
  if (hours <= 0) return { stop() {} };
  const run = () => {
    reconcileDirectory(db, store, clock, { apply: false, actor: { id: null, username: 'system' } }).then(
      (report) => log.info({ drift: report.drift }, 'directory reconciliation (dry run) done'),
      (error: unknown) =>
        log.warn({ err: error }, 'directory reconciliation failed; will run at the next slot'),
    );
  };
  const first = setTimeout(run, 60_000);
  const every = setInterval(run, hours * 3_600_000);
  first.unref();
  every.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
