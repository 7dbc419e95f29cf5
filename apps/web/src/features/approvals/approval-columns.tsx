import Button from 'react-bootstrap/Button';
import type { Decision, PendingApproval } from '@pra/contracts';
import { CheckIcon, CrossIcon } from '../../components/icons';
import type { DataColumn } from '../../components/data-table/use-data-table';
import { decisionLabel } from './decision-labels';
import { RoutingBadge } from './routing-badge';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The request's creation time in the reader's locale; the raw text if it is not a date. */
function formatCreated(created: string): string {
  const date = new Date(created);
  return Number.isNaN(date.getTime()) ? created : dateFormat.format(date);
}

/** The approvals table's columns; Approve/Reject are enabled only where the server's `canDecide` says so. */
export function approvalColumns(
  onDecide: (item: PendingApproval, decision: Decision) => void,
): DataColumn<PendingApproval>[] {
  return [
    { key: 'firstname', header: 'First Name', sortValue: (r) => r.firstname, render: (r) => r.firstname },
    { key: 'lastname', header: 'Last Name', sortValue: (r) => r.lastname, render: (r) => r.lastname },
    { key: 'email', header: 'Email', sortValue: (r) => r.email, render: (r) => r.email },
    {
      key: 'type',
      header: 'Request Type',
      sortValue: (r) => r.type,
      render: (r) => (
        <>
          {r.type} <RoutingBadge item={r} />
        </>
      ),
    },
    { key: 'org', header: 'Organization', sortValue: (r) => r.org, render: (r) => r.org },
    {
      key: 'created',
      header: 'Created',
      sortValue: (r) => Date.parse(r.created) || 0,
      render: (r) => <time dateTime={r.created}>{formatCreated(r.created)}</time>,
      className: 'text-nowrap',
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'text-nowrap',
      pinned: 'end',
      render: (r) => {
        const isAllowed = r.canDecide;
        const approve = decisionLabel(r.type, 'APPROVE').action;
        const reject = decisionLabel(r.type, 'DENY').action;
        return (
          <>
            <Button
              variant="outline-success"
              size="sm"
              className="me-2"
              aria-label={approve}
              title={isAllowed ? approve : 'Not one of your organizations'}
              disabled={!isAllowed}
              onClick={() => onDecide(r, 'APPROVE')}
            >
              <CheckIcon />
            </Button>
            <Button
              variant="outline-danger"
              size="sm"
              aria-label={reject}
              title={isAllowed ? reject : 'Not one of your organizations'}
              disabled={!isAllowed}
              onClick={() => onDecide(r, 'DENY')}
            >
              <CrossIcon />
            </Button>
          </>
        );
      },
    },
  ];
}
