import Card from 'react-bootstrap/Card';
import { aupMessages } from '@pra/contracts/plain-texts';
import { routes } from '@pra/contracts/paths';
import { useMyAup } from '../../components/acceptable-use-policy/use-my-aup';
import { Link } from '../../lib/routing/router';

/** "Acceptable Use Policy: version {v} accepted on {date}; next review due {date}." (GOVERNANCE.md §8.2). */
export function AupCard() {
  const { data } = useMyAup(true);
  if (!data) return null;
  const { standing } = data;
  return (
    <Card>
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {aupMessages.heading}
        </Card.Title>
        <p>
          {standing.acceptedVersion !== null && standing.acceptedOn !== null
            ? aupMessages.profileCard(standing.acceptedVersion, standing.acceptedOn, standing.dueOn)
            : `Acceptable Use Policy: no acceptance recorded yet; next review due ${standing.dueOn}.`}
        </p>
        <Link to={routes.attest}>{aupMessages.readPolicy}</Link>
      </Card.Body>
    </Card>
  );
}
