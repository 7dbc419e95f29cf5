import Button from 'react-bootstrap/Button';
import type { z } from 'zod';
import { mailPage, type adminMail } from '@pra/contracts/administration';
import * as admin from '@pra/contracts/endpoints/administration';
import { callEndpoint } from '../../api/client';
import { DataTable } from '../../components/data-table/data-table';
import { useServerTable } from '../../components/data-table/use-server-table';
import type { DataColumn } from '../../components/data-table/use-data-table';
import { LoadingStatus } from './loading-status';
import { adminKeys, useAdminAction } from './use-admin-action';

/** The admin lists' page size (the server's default for them). */
const PAGE_SIZE = 25;

type AdminMail = z.infer<typeof adminMail>;

type MailSortKey = 'createdAt' | 'recipient';

/**
 * The columns of the retry queue (as the directory's, retry-queue-table.tsx): when it was queued,
 * to whom and what, its state, the last error, and Resend.
 */
function mailColumns(resend: { run: (mail: AdminMail) => void; pending: boolean }): DataColumn<AdminMail>[] {
  return [
    {
      key: 'createdAt',
      header: 'Queued',
      sortValue: (mail) => mail.createdAt,
      render: (mail) => new Date(mail.createdAt).toLocaleString(),
    },
    {
      key: 'recipient',
      header: 'To and subject',
      sortValue: (mail) => mail.recipient,
      render: (mail) => (
        <>
          {mail.recipient}
          <div className="small text-body-secondary">{mail.subject}</div>
        </>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (mail) =>
        mail.status === 'undeliverable' ? 'Undeliverable' : `Retrying (${mail.attempts} attempts)`,
    },
    {
      key: 'lastError',
      header: 'Last error',
      className: 'text-break',
      render: (mail) => mail.lastError ?? '—',
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (mail) => (
        <Button
          size="sm"
          disabled={resend.pending}
          onClick={() => resend.run(mail)}
          aria-label={`Resend the mail to ${mail.recipient}`}
        >
          Resend
        </Button>
      ),
    },
  ];
}

/** Mail: not delivered yet after trying, or refused by the relay; resend. One page at a time, newest first. */
export function MailPage() {
  const resend = useAdminAction((id: string) => callEndpoint(admin.resendMail, { params: { id } }), {
    success: 'Mail queued again.',
    refresh: [adminKeys.mail],
  });
  const { table, isPending } = useServerTable({
    queryKey: adminKeys.mailPages,
    columns: mailColumns({ run: (mail) => resend.mutate(mail.id), pending: resend.isPending }),
    pageSize: PAGE_SIZE,
    fetchPage: (params, signal) =>
      callEndpoint(
        admin.listUndeliveredMail,
        { query: { ...params, sort: params.sort as MailSortKey | undefined }, signal },
        mailPage,
      ),
  });
  return (
    <section aria-labelledby="mail-heading">
      <h2 id="mail-heading" className="h4">
        Undelivered mail
      </h2>
      <p>An activation mail is resent with a new code; the old code stops working.</p>
      {isPending ? (
        <LoadingStatus text="Loading mail…" />
      ) : table.totalCount === 0 ? (
        <p>All mail has been delivered.</p>
      ) : (
        <DataTable
          table={table}
          caption="Undelivered mail"
          filterLabel="Filter by recipient or subject"
          emptyText="No mail matches."
          getRowKey={(mail) => mail.id}
          stackOnPhone
        />
      )}
    </section>
  );
}
