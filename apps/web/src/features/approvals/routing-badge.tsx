import type { PendingApproval } from '@pra/contracts';

/**
 * The badge after the Request Type text (GOVERNANCE.md §5.2): "For {BRM}" when the caller decides
 * for an away BRM, "Forwarded to you" for a backup BRM or InfoSec, else "Due in {n} days" (red
 * within 2 days). The days are the server's, so the browser's clock cannot disagree.
 */
export function RoutingBadge({ item }: { item: PendingApproval }) {
  if (item.onBehalfOf) return <span className="badge text-bg-info">For {item.onBehalfOf}</span>;
  if (item.forwarded) return <span className="badge text-bg-warning">Forwarded to you</span>;
  const n = Math.max(item.dueInDays, 0);
  const urgent = n <= 2;
  return (
    <span className={`badge ${urgent ? 'text-bg-danger' : 'text-bg-secondary'}`}>
      {n === 0 ? 'Due today' : `Due in ${n} ${n === 1 ? 'day' : 'days'}`}
    </span>
  );
}

const EVENT_TEXT: Record<PendingApproval['history'][number]['event'], string> = {
  sent: 'Sent to',
  reminded: 'Reminded',
  forwarded: 'Forwarded to',
  delegated: 'Handed to',
  expired: 'Expired; told',
};

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium' });

/** The expanded row's deadline and routing history ("Sent to A, B on …; reminded …; forwarded to C on …"). */
export function RoutingHistory({ item }: { item: PendingApproval }) {
  return (
    <>
      <dt className="col-sm-2">Due</dt>
      <dd className="col-sm-10">{day(item.dueAt)}</dd>
      <dt className="col-sm-2">Routing</dt>
      <dd className="col-sm-10">
        {item.history.length === 0 ? (
          '—'
        ) : (
          <ul className="list-unstyled mb-0">
            {item.history.map((h) => (
              <li key={`${h.at}-${h.event}`}>
                {EVENT_TEXT[h.event]} {h.to} on {day(h.at)}
              </li>
            ))}
          </ul>
        )}
      </dd>
    </>
  );
}
