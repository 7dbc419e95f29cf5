import { useQuery } from '@tanstack/react-query';
import type { IdentifyByCodeResponse } from '@pra/contracts';
import { recoveryMessages } from '@pra/contracts/recovery';
import * as calls from '@pra/contracts/endpoints/recovery';
import { callEndpoint } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { queryKeys } from '../../lib/query-keys';
import { useSearchParams } from '../../lib/routing/router';

export interface LinkCode {
  /** True while the link's code is checked: the wizard renders nothing until then. */
  isPending: boolean;
  /** The server's answer for the link's code; undefined without a code or when the check failed. */
  result: IdentifyByCodeResponse | undefined;
  /** Why the link cannot be used (refused or not checked), to say on the page beside the toast. */
  problem: string | undefined;
}

/** The message for a refused code: 'Invalid reset code. {reason}.' */
function refusal(result: IdentifyByCodeResponse): string | undefined {
  if (result.isAccountValid && result.isCodeValid) return undefined;
  return recoveryMessages.invalidResetCode(result.invalidReason ?? recoveryMessages.codeUnknown);
}

/**
 * Checks the `?code=` of the emailed link once, on arrival. A valid code shows 'Reset code
 * validated.'; a refused one 'Invalid reset code. {reason}.'; a failed check 'Error occurred
 * while validating reset code.' (both leave the wizard at step 0).
 */
export function useLinkCode(): LinkCode {
  const [searchParams] = useSearchParams();
  const code = (searchParams.get('code') ?? '').trim();
  const checked = useQuery({
    queryKey: queryKeys.resetLinkCode(code),
    queryFn: async ({ signal }) => {
      const result = await callEndpoint(calls.identifyByCode, { body: { code }, signal });
      const problem = refusal(result);
      showAlert(problem ?? recoveryMessages.resetCodeValidated, problem ? 'danger' : 'success');
      return result;
    },
    enabled: !!code,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    meta: { alertOnError: () => recoveryMessages.resetCodeError },
  });
  if (!code) return { isPending: false, result: undefined, problem: undefined };
  const problem = checked.data
    ? refusal(checked.data)
    : checked.isError
      ? recoveryMessages.resetCodeError
      : undefined;
  return { isPending: checked.isPending, result: checked.data, problem };
}
