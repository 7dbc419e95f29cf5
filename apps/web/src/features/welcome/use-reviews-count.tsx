import Alert from 'react-bootstrap/Alert';
import { useQuery } from '@tanstack/react-query';
import { reviewMessages } from '@pra/contracts/access-reviews';
import { routes } from '@pra/contracts/paths';
import { callEndpoint } from '../../api/client';
import { Link } from '../../lib/routing/router';

/** The Access Reviews badge: undecided items the BRM or admin may decide (GOVERNANCE.md §4.2). */
export function useReviewsCount(enabled: boolean) {
  return useQuery({
    queryKey: ['access-reviews', 'count'],
    queryFn: async ({ signal }) => {
      const { getAccessReviews } = await import('@pra/contracts/endpoints/access-reviews');
      return callEndpoint(getAccessReviews, { query: { countOnly: 'true' }, signal });
    },
    enabled,
  });
}

/** The vendor's welcome alert while their access is being reviewed and unanswered. */
export function VendorReviewAlert() {
  const { data } = useQuery({
    queryKey: ['access-confirmation'],
    queryFn: async ({ signal }) => {
      const { getAccessConfirmation } = await import('@pra/contracts/endpoints/access-reviews');
      return callEndpoint(getAccessConfirmation, { signal });
    },
  });
  const open = data?.items.find((i) => i.answer === null);
  if (!open) return null;
  return (
    <Alert variant="info">
      {reviewMessages.welcomeAlert(open.organization)}{' '}
      <Link to={routes.confirmAccess}>Confirm your access</Link>
    </Alert>
  );
}
