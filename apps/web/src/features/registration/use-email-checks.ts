import { useQuery } from '@tanstack/react-query';
import { emailDomain, registrationBody } from '@pra/contracts/registration';
import * as calls from '@pra/contracts/endpoints/registration';
import { callEndpoint } from '../../api/client';
import { queryKeys } from '../../lib/query-keys';
import { useDebouncedValue } from '../../components/use-debounced-value';

/** How long typing must pause before the email is checked with the server. */
const EMAIL_CHECK_DELAY_MS = 400;

const emailSchema = registrationBody.shape.email;

/**
 * The server's view of the email being typed: the organizations owning its domain and whether it
 * is already in use. Both wait for a valid email and a pause in typing.
 */
export function useEmailChecks(email: string) {
  const typed = email.trim();
  const settled = useDebouncedValue(typed, EMAIL_CHECK_DELAY_MS);
  const isValid = emailSchema.safeParse(settled).success;
  const domain = isValid ? emailDomain(settled) : '';

  const orgs = useQuery({
    queryKey: queryKeys.orgsByDomain(domain),
    queryFn: ({ signal }) => callEndpoint(calls.getOrgsByDomain, { query: { domain }, signal }),
    enabled: domain !== '',
    staleTime: 60_000,
    meta: { alertOnError: true },
  });
  const inUse = useQuery({
    queryKey: queryKeys.emailInUse(settled),
    queryFn: ({ signal }) => callEndpoint(calls.checkEmailInUse, { body: { email: settled }, signal }),
    enabled: isValid,
    staleTime: 0,
    gcTime: 0,
    meta: { alertOnError: true },
  });

  /** True once the checks describe what is in the field now (not an earlier, still-settling value). */
  const isCurrent = isValid && settled === typed;
  return {
    domain,
    isCurrent,
    /** Organizations owning the domain; undefined until loaded for the current email. */
    domainOrgs: isCurrent ? orgs.data : undefined,
    emailStatus: isCurrent ? inUse.data : undefined,
  };
}
