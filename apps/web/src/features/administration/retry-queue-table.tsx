import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';

/**
 * One waiting item of a queue the portal retries by itself (directory changes; undelivered mail
 * shows the same columns one server page at a time, mail-page.tsx).
 */
export interface RetryQueueRow {
  id: string;
  createdAt: string;
  /** What waits: a directory change and whom it is for. */
  subject: ReactNode;
  status: string;
  lastError: string | null;
}

/**
 * The admin screens' table of a retrying queue: when it was queued, what it is, its state, the
 * last error, and a button to try it again now. `headers` names the second and fourth columns.
 * On a phone each row is a block, its cells under their column's name.
 */
export function RetryQueueTable<T extends RetryQueueRow>({
  rows,
  headers,
  action,
}: {
  rows: readonly T[];
  headers: { subject: string; lastError: string };
  action: { label: string; accessibleName: (row: T) => string; run: (row: T) => void; pending?: boolean };
}) {
  return (
    <Table responsive hover size="sm" className="table-stacked-phone">
      <thead>
        <tr>
          <th scope="col">Queued</th>
          <th scope="col">{headers.subject}</th>
          <th scope="col">Status</th>
          <th scope="col">{headers.lastError}</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td data-label="Queued">{new Date(row.createdAt).toLocaleString()}</td>
            <td data-label={headers.subject}>{row.subject}</td>
            <td data-label="Status">{row.status}</td>
            <td data-label={headers.lastError} className="text-break">
              {row.lastError ?? '—'}
            </td>
            <td>
              <Button
                size="sm"
                disabled={action.pending}
                onClick={() => action.run(row)}
                aria-label={action.accessibleName(row)}
              >
                {action.label}
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
