import { useQuery } from '@tanstack/react-query';
import { mailList } from '@pra/contracts/administration';
import * as admin from '@pra/contracts/endpoints/administration';
import { callEndpoint } from '../../api/client';
import { RetryQueueTable } from './retry-queue-table';
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
        <RetryQueueTable
          rows={(data?.mails ?? []).map((mail) => ({
            ...mail,
            subject: (
              <>
                {mail.recipient}
                <div className="small text-body-secondary">{mail.subject}</div>
              </>
            ),
            status:
              mail.status === 'undeliverable' ? 'Undeliverable' : `Retrying (${mail.attempts} attempts)`,
          }))}
          headers={{ subject: 'To and subject', lastError: 'Last error' }}
          action={{
            label: 'Resend',
            accessibleName: (mail) => `Resend the mail to ${mail.recipient}`,
            run: (mail) => resend.mutate(mail.id),
          }}
        />
      )}
    </section>
  );
}
