import Alert from 'react-bootstrap/Alert';
import { aupMessages } from '@pra/contracts/plain-texts';
import { routes } from '@pra/contracts/paths';
import { useMyAup } from '../../components/acceptable-use-policy/use-my-aup';
import { Link } from '../../lib/routing/router';

/** Welcome (vendor) while the Acceptable Use Policy is due (GOVERNANCE.md §8.2). */
export function AupAlert() {
  const { data } = useMyAup(true);
  if (!data || data.standing.state === 'current') return null;
  return (
    <Alert variant="warning">
      {aupMessages.welcomeAlert(data.standing.reviewBy)}{' '}
      <Link className="alert-link" to={routes.attest}>
        {aupMessages.reviewNow}
      </Link>
    </Alert>
  );
}
