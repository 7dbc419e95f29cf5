import { useQuery } from '@tanstack/react-query';
import { getMyAup } from '@pra/contracts/endpoints/policy-attestation';
import { callEndpoint } from '../../api/client';

export const myAupKey = ['my-aup'] as const;

/** The newest Acceptable Use Policy and where the signed-in vendor stands (vendors only). */
export function useMyAup(enabled: boolean) {
  return useQuery({
    queryKey: myAupKey,
    queryFn: ({ signal }) => callEndpoint(getMyAup, { signal }),
    enabled,
  });
}
