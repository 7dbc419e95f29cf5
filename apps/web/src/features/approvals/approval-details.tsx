import type { PendingApproval } from '@pra/contracts';
import { RoutingHistory } from './routing-badge';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => dateTime.format(new Date(iso));

/** The expanded part of a row: the new account's attributes, then comment, organization and requester. */
export function ApprovalDetails({ item }: { item: PendingApproval }) {
  const attributes: [string, string][] =
    item.type === 'New Account'
      ? [
          ['First Name', item.firstname],
          ['Last Name', item.lastname],
          ['Email', item.email],
          ['Job Title', item.jobTitle],
          ['Manager', item.manager],
          ['Username', item.name],
        ]
      : [
          ['Request', item.workItemName],
          ['Description', item.description],
          ['Username', item.name],
        ];
  return (
    <div className="py-1">
      <table className="table table-sm table-borderless w-auto mb-2">
        <caption className="caption-top pb-1">{item.workItemName || item.type}</caption>
        <thead>
          <tr>
            <th scope="col">Attribute</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {attributes
            .filter(([, value]) => value)
            .map(([attribute, value]) => (
              <tr key={attribute}>
                <th scope="row" className="fw-normal text-body-secondary">
                  {attribute}
                </th>
                <td>{value}</td>
              </tr>
            ))}
        </tbody>
      </table>
      <dl className="row mb-0">
        <dt className="col-sm-2">Comment</dt>
        <dd className="col-sm-10">{item.comment || '—'}</dd>
        {item.type === 'Extend Access' && (
          <>
            <dt className="col-sm-2">Current end</dt>
            <dd className="col-sm-10">{item.currentEndsOn ?? 'Ended'}</dd>
            <dt className="col-sm-2">Requested until</dt>
            <dd className="col-sm-10">{item.requestedUntilOn ?? '—'}</dd>
          </>
        )}
        {item.emergency && (
          <>
            <dt className="col-sm-2">Ticket</dt>
            <dd className="col-sm-10">{item.emergency.ticket}</dd>
            <dt className="col-sm-2">Granted by</dt>
            <dd className="col-sm-10">
              {item.emergency.grantedBy} for {item.emergency.hours} hours
            </dd>
            <dt className="col-sm-2">Access ends</dt>
            <dd className="col-sm-10">
              {item.emergency.endedAt ? (
                <>
                  Ended <time dateTime={item.emergency.endedAt}>{when(item.emergency.endedAt)}</time>
                </>
              ) : (
                <time dateTime={item.emergency.endsAt}>{when(item.emergency.endsAt)}</time>
              )}
            </dd>
          </>
        )}
        {item.departure && (
          <>
            <dt className="col-sm-2">Reported by</dt>
            <dd className="col-sm-10">{item.departure.reportedBy}</dd>
            <dt className="col-sm-2">Date left</dt>
            <dd className="col-sm-10">{item.departure.leftOn}</dd>
            <dt className="col-sm-2">Account</dt>
            <dd className="col-sm-10">
              {item.departure.suspended ? 'Suspended (departure reported)' : 'Enabled until decided'}
            </dd>
          </>
        )}
        <dt className="col-sm-2">Organization</dt>
        <dd className="col-sm-10">{item.org}</dd>
        <dt className="col-sm-2">Requester</dt>
        <dd className="col-sm-10">{item.commentAuthor || '—'}</dd>
        <RoutingHistory item={item} />
      </dl>
    </div>
  );
}
