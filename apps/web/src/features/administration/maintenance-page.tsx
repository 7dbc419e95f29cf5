import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useQuery } from '@tanstack/react-query';
import * as admin from '@pra/contracts/endpoints/administration';
import { callEndpoint } from '../../api/client';
import { queryKeys } from '../../lib/query-keys';
import { adminKeys, useAdminAction } from './use-admin-action';

/** Maintenance: account management on hold (the flag iiqAvailable reads) and back. */
export function MaintenancePage() {
  const { data } = useQuery({
    queryKey: adminKeys.maintenance,
    queryFn: ({ signal }) => callEndpoint(admin.getMaintenance, { signal }),
    meta: { alertOnError: true },
  });
  const toggle = useAdminAction(
    (maintenance: boolean) => callEndpoint(admin.setMaintenance, { body: { maintenance } }),
    {
      success: (on) =>
        on ? 'Account management is in maintenance.' : 'Account management is available again.',
      refresh: [adminKeys.maintenance, queryKeys.currentUser],
    },
  );
  if (!data) return null;
  const on = data.maintenance || data.forcedBySetting;
  return (
    <section aria-labelledby="maintenance-heading">
      <h2 id="maintenance-heading" className="h4">
        Maintenance
      </h2>
      <p>
        Account management is <strong>{on ? 'in maintenance' : 'available'}</strong>. In maintenance,
        registration, approvals and other account changes answer that they are currently unavailable.
      </p>
      {data.forcedBySetting && (
        <Alert variant="warning">
          The IIQ_MAINTENANCE setting keeps it in maintenance whatever is chosen here.
        </Alert>
      )}
      <Button
        variant={data.maintenance ? 'success' : 'warning'}
        onClick={() => toggle.mutate(!data.maintenance)}
        disabled={toggle.isPending}
      >
        {data.maintenance ? 'End maintenance' : 'Start maintenance'}
      </Button>
    </section>
  );
}
