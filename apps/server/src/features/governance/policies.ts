import { createHash } from 'node:crypto';
import {
  governanceSettings,
  policyMessages,
  type GovernancePolicies,
  type GovernanceSettings,
  type RiskTier,
} from '@pra/contracts';
import type { Db, Tx } from '../../platform/db';
import { AppError } from '../../platform/app-error';
import { recordAudit } from '../../identity/audit';
import { readPolicies, writePolicy } from '../../store/governance';

/**
 * A policy row's version: a digest of when it was saved and what it holds, so a change made
 * since it was read is seen even when two saves share a clock reading.
 */
function versionOf(row: { updated_at: Date | string; settings: unknown }): string {
  const settings = JSON.stringify(governanceSettings.parse(row.settings));
  return createHash('sha256')
    .update(`${new Date(row.updated_at).toISOString()}|${settings}`)
    .digest('base64url')
    .slice(0, 22);
}

/** Administration → Governance → Policies: each tier's settings, who saved them last and when. */
export async function listPolicies(db: Db, canEdit: boolean): Promise<GovernancePolicies> {
  const rows = await readPolicies(db);
  return {
    policies: rows
      .map((row) => ({
        tier: row.tier,
        settings: governanceSettings.parse(row.settings),
        updatedAt: new Date(row.updated_at).toISOString(),
        updatedBy: row.updatedByUsername,
        version: versionOf(row),
      }))
      .sort((a, b) => (a.tier === b.tier ? 0 : a.tier === 'standard' ? -1 : 1)),
    canEdit,
  };
}

/**
 * Saves one tier's settings if nobody saved it since `version` was read (the row is locked, so of
 * two admins saving at once the second is told to reload), audited `policy.change` with the
 * settings that changed, from and to.
 */
export async function savePolicy(
  tx: Tx,
  actor: { id: string; username: string; clientAddress: string },
  change: { tier: RiskTier; version: string; settings: GovernanceSettings },
  at: Date,
): Promise<void> {
  const current = await lockPolicy(tx, change.tier);
  if (!current || versionOf(current) !== change.version)
    throw new AppError('conflict', policyMessages.changedMeanwhile);
  const before = governanceSettings.parse(current.settings);
  // Each changed setting as "from → to" (lists and null as JSON), flat as audit details are.
  const changed: Record<string, string> = {};
  for (const key of Object.keys(change.settings) as (keyof GovernanceSettings)[]) {
    const from = JSON.stringify(before[key]);
    const to = JSON.stringify(change.settings[key]);
    if (from !== to) changed[key] = `${from} → ${to}`;
  }
  if (Object.keys(changed).length === 0) return;
  await writePolicy(tx, change.tier, change.settings, { accountId: actor.id, at });
  await recordAudit(tx, {
    action: 'policy.change',
    outcome: 'success',
    actor,
    clientAddress: actor.clientAddress,
    details: { tier: change.tier, ...changed },
  });
}

async function lockPolicy(tx: Tx, tier: RiskTier) {
  return (await readPolicies(tx, { tier, forUpdate: true }))[0];
}
