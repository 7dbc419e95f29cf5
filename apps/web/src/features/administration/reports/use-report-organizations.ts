import { useQuery } from '@tanstack/react-query';
import { getReportOrganizations } from '@pra/contracts/endpoints/reports';
import { reportOrganizations } from '@pra/contracts/reports';
import { callEndpoint } from '../../../api/client';
import { adminKeys } from '../use-admin-action';

/** The organizations the reports filter by (admins and auditors may read them). */
export function useReportOrganizations() {
  return useQuery({
    queryKey: adminKeys.reportOrganizations,
    queryFn: ({ signal }) => callEndpoint(getReportOrganizations, { signal }, reportOrganizations),
    meta: { alertOnError: true },
  }).data;
}
