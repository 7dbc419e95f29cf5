import Badge from 'react-bootstrap/Badge';
import { useQuery } from '@tanstack/react-query';
import { directoryDriftReport, type DirectoryDriftItem } from '@pra/contracts';
import * as admin from '@pra/contracts/endpoints/administration';
import { callEndpoint } from '../../api/client';
import { RetryQueueTable } from './retry-queue-table';
import { adminKeys, useAdminAction } from './use-admin-action';

/** What queued a directory change, in words (the provisioning rows' actions). */
const changes: Record<string, string> = {
  'group.ensure': 'Organization group',
  'account.create': 'New account',
  'account.update': 'Name or email',
  'account.active': 'Enable',
  'account.disabled': 'Disable',
  'account.terminated': 'Terminate',
  'account.pendingActivation': 'New account',
  'role.grant': 'Role added',
  'role.remove': 'Role removed',
};

function describeDrift(item: DirectoryDriftItem): string {
  const who = item.username ?? item.memberDn ?? 'an entry outside the vendors’ OU';
  switch (item.kind) {
    case 'unexpectedMember':
      return `${who} is a member of ${item.group ?? 'a portal group'}, which the portal did not grant`;
    case 'missingMember':
      return `${who} lacks ${item.group ?? 'a portal group'}, which the portal granted`;
    case 'enabledMismatch':
      return `${who} is ${item.portal ?? '?'} in the portal and ${item.directory ?? '?'} in the directory`;
    case 'missingInDirectory':
      return `${who} has no account in the directory`;
    case 'missingInPortal':
      return `${who} is in the directory’s vendors’ OU but not in the portal`;
  }
}

/**
 * Directory: the hospital's directory as the portal writes it (IDENTITY_STORE=ldap) — whether it
 * answers, the changes waiting for it, the ones that keep failing with the directory's reason (and
 * Retry, like undelivered mail), and the last reconciliation's report.
 */
export function DirectoryPage() {
  const { data } = useQuery({
    queryKey: adminKeys.directory,
    queryFn: ({ signal }) => callEndpoint(admin.getDirectoryStatus, { signal }),
    meta: { alertOnError: true },
    refetchInterval: 15_000,
  });
  const retry = useAdminAction((id: string) => callEndpoint(admin.retryProvisioning, { params: { id } }), {
    success: 'Directory change queued again.',
    refresh: [adminKeys.directory],
  });
  const report = data?.lastReport;
  const items = report ? (directoryDriftReport.safeParse(report.report).data?.items ?? []) : [];
  return (
    <section aria-labelledby="directory-heading">
      <h2 id="directory-heading" className="h4">
        Directory
      </h2>
      {data?.identityStore === 'builtin' ? (
        <p>
          The portal’s own database is the directory (IDENTITY_STORE=builtin): accounts, passwords and roles
          change there at once, and there is nothing to send elsewhere.
        </p>
      ) : data ? (
        <>
          <p>
            Account changes reach the hospital’s directory through a queue: the portal tries each again by
            itself, longer apart each time, until the directory takes it. Passwords are never queued.
          </p>
          <dl className="row mb-3">
            <dt className="col-sm-3">The directory</dt>
            <dd className="col-sm-9">
              {data.available ? (
                <Badge bg="success">Answers</Badge>
              ) : (
                <>
                  <Badge bg="danger">Does not answer</Badge>{' '}
                  <span>Account changes answer “unavailable” and wait until it returns.</span>
                </>
              )}
            </dd>
            <dt className="col-sm-3">Changes waiting</dt>
            <dd className="col-sm-9">{data.pending}</dd>
          </dl>
          <h3 className="h5">Changes that keep failing</h3>
          {data.failing.length === 0 ? (
            <p>No directory change is failing.</p>
          ) : (
            <RetryQueueTable
              rows={data.failing.map((row) => {
                const change = changes[row.action] ?? row.action;
                const subject = row.username ?? row.organization ?? '';
                return {
                  ...row,
                  change,
                  who: subject,
                  subject: (
                    <>
                      {change}
                      <div className="small text-body-secondary">{subject}</div>
                    </>
                  ),
                  status: `Retrying (${row.attempts} ${row.attempts === 1 ? 'attempt' : 'attempts'}), next at ${new Date(row.nextAttemptAt).toLocaleTimeString()}`,
                };
              })}
              headers={{ subject: 'Change', lastError: 'Directory’s reason' }}
              action={{
                label: 'Retry',
                accessibleName: (row) => `Retry ${row.change.toLowerCase()} for ${row.who}`,
                run: (row) => retry.mutate(row.id),
              }}
            />
          )}
          <h3 className="h5">Last reconciliation</h3>
          {report ? (
            <>
              <p>
                {new Date(report.createdAt).toLocaleString()}:{' '}
                {report.drift === 0
                  ? 'the directory matched the portal.'
                  : `${report.drift} ${report.drift === 1 ? 'difference' : 'differences'} ${report.applied ? 'found and repaired' : 'found, not repaired (dry run)'}.`}
              </p>
              {items.length > 0 && (
                <ul>
                  {items.slice(0, 50).map((item, index) => (
                    <li key={index}>{describeDrift(item)}</li>
                  ))}
                </ul>
              )}
            </>
          ) : (
            <p>
              None yet: it runs daily, or with <code>admin directory-reconcile</code>.
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}
