import { useQuery } from '@tanstack/react-query';
import { api } from '@pra/contracts/paths';
import { myAupBody } from '../../api/boot-parsers';
import { call } from '../../api/client';

export const myAupKey = ['my-aup'] as const;

/** The newest Acceptable Use Policy and where the signed-in vendor stands (vendors only). */
export function useMyAup(enabled: boolean) {
  return useQuery({
    queryKey: myAupKey,
    queryFn: ({ signal }) => call(myAupBody, { method: 'get', url: api.myAup, signal }),
    enabled,
  });
}
