import { useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import { getSystemMessage } from '../api/system';
import { queryKeys } from './query-keys';
import { useIsAuthenticated } from './use-auth-status';

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
    <Alert variant={message.severity} role="status">
      {message.title && (
        <Alert.Heading as="h2" className="h5">
          {message.title}
        </Alert.Heading>
      )}
      <p className="mb-0">{message.text}</p>
    </Alert>
  );
}
