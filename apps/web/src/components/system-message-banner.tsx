import { useQuery } from '@tanstack/react-query';
import { getSystemMessage } from '../api/system';
import { queryKeys } from '../lib/query-keys';
import { useIsAuthenticated } from '../lib/use-auth-status';

/** The operator's banner. A failed load is only logged (by the client), never shown. */
export function SystemMessageBanner() {
  const isAuthenticated = useIsAuthenticated();
  const { data: message } = useQuery({
    queryKey: queryKeys.systemMessage,
    queryFn: ({ signal }) => getSystemMessage(signal),
    staleTime: 5 * 60_000,
  });
  if (!message?.enabled || (message.loggedInOnly && !isAuthenticated)) return null;
  return (
    // Bootstrap's alert markup without react-bootstrap: this banner is on the first page.
    <div className={`alert alert-${message.severity}`} role="status">
      {message.title && <h2 className="alert-heading h5">{message.title}</h2>}
      <p className="mb-0">{message.text}</p>
    </div>
  );
}
