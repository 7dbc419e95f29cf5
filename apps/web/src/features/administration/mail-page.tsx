import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useQuery } from '@tanstack/react-query';
import { mailList } from '@pra/contracts/administration';
import * as admin from '@pra/contracts/endpoints/administration';
import { callEndpoint } from '../../api/client';
import { adminKeys, useAdminAction } from './use-admin-action';

/** Mail: not delivered yet after trying, or refused by the relay; resend. */
export function MailPage() {
  const { data } = useQuery({
    queryKey: adminKeys.mail,
    queryFn: ({ signal }) => callEndpoint(admin.listUndeliveredMail, { signal }, mailList),
    meta: { alertOnError: true },
  });
  const resend = useAdminAction((id: string) => callEndpoint(admin.resendMail, { params: { id } }), {
    success: 'Mail queued again.',
    refresh: [adminKeys.mail],
  });
  return (
    <section aria-labelledby="mail-heading">
      <h2 id="mail-heading" className="h4">
        Undelivered mail
      </h2>
      <p>An activation mail is resent with a new code; the old code stops working.</p>
      {data?.mails.length === 0 ? (
        <p>All mail has been delivered.</p>
      ) : (
        <Table responsive hover size="sm">
          <thead>
            <tr>
              <th scope="col">Queued</th>
              <th scope="col">To and subject</th>
              <th scope="col">Status</th>
              <th scope="col">Last error</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.mails.map((mail) => (
              <tr key={mail.id}>
                <td>{new Date(mail.createdAt).toLocaleString()}</td>
                <td>
                  {mail.recipient}
                  <div className="small text-body-secondary">{mail.subject}</div>
                </td>
                <td>
                  {mail.status === 'undeliverable' ? 'Undeliverable' : `Retrying (${mail.attempts} attempts)`}
                </td>
                <td className="text-break">{mail.lastError ?? '—'}</td>
                <td>
                  <Button
                    size="sm"
                    onClick={() => resend.mutate(mail.id)}
                    aria-label={`Resend the mail to ${mail.recipient}`}
                  >
                    Resend
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
