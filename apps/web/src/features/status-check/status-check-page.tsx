import { useQuery } from '@tanstack/react-query';
import { getServiceCheck } from '../../api/system';
import { queryKeys } from '../../lib/query-keys';

/** /status_check: shows the plain-text service check as the server reports it. */
export function StatusCheckPage() {
  const { data, error } = useQuery({
    queryKey: queryKeys.serviceCheck,
    queryFn: ({ signal }) => getServiceCheck(signal),
  });
  return (
    <>
      <h1 className="page-title">Service Status</h1>
      {error && <p className="text-danger">{error.message}</p>}
      {data !== undefined && <pre className="status-check">{data}</pre>}
    </>
  );
}
