import { useQuery } from '@tanstack/react-query';
import type { CommonPasswords } from '@pra/contracts';
import { commonPasswordLookup } from '@pra/contracts/password-rules';

let loading: Promise<CommonPasswords> | undefined;

/**
 * zxcvbn's common-password list, the one the server refuses ('Not a commonly used password').
 * Loaded on first use only, like the strength meter's dictionaries (the same chunk).
 */
function loadCommonPasswords(): Promise<CommonPasswords> {
  loading ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) =>
    commonPasswordLookup(dictionary['passwords-common']),
  );
  return loading;
}

/** The list once loaded, when the policy asks for the rule; until then the rule shows as not met. */
export function useCommonPasswords(isNeeded: boolean): CommonPasswords | undefined {
  return useQuery({
    queryKey: ['common-passwords'],
    queryFn: loadCommonPasswords,
    enabled: isNeeded,
    staleTime: Infinity,
    gcTime: Infinity,
  }).data;
}
