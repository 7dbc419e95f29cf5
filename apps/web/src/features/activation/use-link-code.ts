import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from '../../lib/routing/router';
import * as calls from '@pra/contracts/endpoints/activation';
import { callEndpoint } from '../../api/client';
import { queryKeys } from '../../lib/query-keys';
import { decodeFailureMessage } from './use-activation';
import type { LinkCodeCheck } from './wizard-state';

export interface LinkCode {
  /** True while the code of the link is being checked; the wizard waits (renders nothing) until then. */
  isPending: boolean;
  /** The link's code and the server's answer (undefined when the check failed); none without a code. */
  check: LinkCodeCheck | undefined;
}

/** Decodes the `?code=` of the emailed link once, on arrival; a failed check shows its alert. */
export function useLinkCode(): LinkCode {
  const [searchParams] = useSearchParams();
  const linkCode = (searchParams.get('code') ?? '').trim();
  const decoded = useQuery({
    queryKey: queryKeys.activationLinkCode(linkCode),
    queryFn: ({ signal }) =>
      callEndpoint(calls.decodeActivationCode, { body: { claimCode: linkCode }, signal }),
    enabled: !!linkCode,
    // Checked once per arrival: never refetched while the wizard runs, forgotten once it is left.
    staleTime: Infinity,
    gcTime: 0,
    meta: { alertOnError: decodeFailureMessage },
  });

  if (!linkCode) return { isPending: false, check: undefined };
  return {
    isPending: decoded.isPending,
    check: { code: linkCode, result: decoded.data },
  };
}
