import { adminSystemMessage, type AdminSystemMessage } from '@pra/contracts';
import { AppError } from '../../platform/app-error';
import { recordAudit } from '../../identity/audit';
import type { Db, Tx } from '../../platform/db';
import type { Actor } from './actor';
import { valid } from './valid';
import { readStoredSystemMessage } from '../../identity/system-message';
import { updateSystemMessage, writeMaintenanceFlag } from '../../store/settings';

/** The system message as admins edit it (the public call shows it only inside its time window). */
export async function readAdminSystemMessage(db: Db | Tx): Promise<AdminSystemMessage> {
  return (await readStoredSystemMessage(db)) ?? clearedSystemMessage;
}

/** Shared by the API and the CLI: the API's schema, and an end (if any) after the start. */
export async function writeSystemMessage(tx: Tx, actor: Actor, input: AdminSystemMessage): Promise<void> {
  const message = valid(adminSystemMessage.strict(), input);
  if (message.startsAt && message.endsAt && Date.parse(message.endsAt) <= Date.parse(message.startsAt)) {
    throw new AppError('badRequest', 'The end time must be after the start time.');
  }
  await updateSystemMessage(tx, message);
  await recordAudit(tx, {
    action: message.enabled ? 'system-message.set' : 'system-message.clear',
    outcome: 'success',
    actor,
    clientAddress: actor.clientAddress,
    details: {
      severity: message.severity,
      loggedInOnly: message.loggedInOnly,
      title: message.title.slice(0, 200),
      startsAt: message.startsAt,
      endsAt: message.endsAt,
    },
  });
}

export const clearedSystemMessage: AdminSystemMessage = {
  enabled: false,
  loggedInOnly: false,
  severity: 'info',
  title: '',
  text: '',
  startsAt: null,
  endsAt: null,
};

export async function setMaintenance(tx: Tx, actor: Actor, on: boolean): Promise<void> {
  await writeMaintenanceFlag(tx, on);
  await recordAudit(tx, {
    action: on ? 'maintenance.on' : 'maintenance.off',
    outcome: 'success',
    actor,
    clientAddress: actor.clientAddress,
  });
}
