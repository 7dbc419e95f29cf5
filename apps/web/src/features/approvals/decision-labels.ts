import type { Decision, PendingApproval } from '@pra/contracts';
import { approvalMessages } from '@pra/contracts/approvals';
import { departureReportMessages, emergencyMessages } from '@pra/contracts/emergencies';

/** What one decision is called on a row, in its dialog and in its toast. */
export interface DecisionLabel {
  /** The button and the dialog's confirm button ("Approve", "Acknowledge", "Confirm Departure"…). */
  action: string;
  /** The dialog's title. */
  title: string;
  /** The comment field's label, and whether it is required. */
  commentLabel: string;
  commentRequired: boolean;
  /** The toast after success. */
  done: string;
}

/**
 * The two decisions of a row by its Request Type: Approve and Reject for requests; GOVERNANCE.md
 * §10's "Acknowledge" (a note) and "Remove now" for an emergency follow-up, "Confirm Departure" and
 * "Dismiss" (a reason) for a reported departure. The server takes them as APPROVE and DENY.
 */
export function decisionLabel(
  type: PendingApproval['type'] | undefined,
  decision: Decision | undefined,
): DecisionLabel {
  const approve = decision !== 'DENY';
  if (type === 'Emergency Access') {
    return approve
      ? {
          action: 'Acknowledge',
          title: 'Acknowledge Emergency Access',
          commentLabel: 'Note',
          commentRequired: true,
          done: emergencyMessages.acknowledged,
        }
      : {
          action: 'Remove now',
          title: 'Remove Emergency Access Now',
          commentLabel: 'Reason',
          commentRequired: true,
          done: emergencyMessages.removed,
        };
  }
  if (type === 'Departure Reported') {
    return approve
      ? {
          action: 'Confirm Departure',
          title: 'Confirm Departure',
          commentLabel: 'Comment (optional)',
          commentRequired: false,
          done: departureReportMessages.confirmed,
        }
      : {
          action: 'Dismiss',
          title: 'Dismiss Report',
          commentLabel: 'Reason',
          commentRequired: true,
          done: departureReportMessages.dismissed,
        };
  }
  return approve
    ? {
        action: 'Approve',
        title: 'Approve Request',
        commentLabel: 'Comment (optional)',
        commentRequired: false,
        done: approvalMessages.approved,
      }
    : {
        action: 'Reject',
        title: 'Reject Request',
        commentLabel: 'Justification',
        commentRequired: true,
        done: approvalMessages.denied,
      };
}
