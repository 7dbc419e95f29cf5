import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link } from '../../lib/routing/router';
import type { ActionItem } from '../../lib/action-items';

interface ActionCardProps {
  item: ActionItem;
  /** Navigation state for the card's route (New User gets the current user). */
  state?: unknown;
  /** Count badge (Approvals). */
  count?: number | undefined;
}

/** One welcome-page card; the whole card is the link unless it is disabled. */
export function ActionCard({ item, state, count }: ActionCardProps) {
  const title = (
    <>
      {item.label}
      {count !== undefined && (
        // Alarm red only when something waits; a 0 is plain grey.
        <Badge bg={count > 0 ? 'danger' : 'secondary'} pill className="ms-2">
          {count}
          <span className="visually-hidden"> pending</span>
        </Badge>
      )}
    </>
  );
  return (
    <Card
      className={`action-card h-100${item.disabled ? ' is-disabled' : ''}`}
      aria-disabled={item.disabled || undefined}
    >
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {item.disabled ? (
            title
          ) : item.target.kind === 'external' ? (
            <a className="stretched-link" href={item.target.href} target="_blank" rel="noopener noreferrer">
              {title}
            </a>
          ) : (
            <Link className="stretched-link" to={item.target.to} state={state}>
              {title}
            </Link>
          )}
        </Card.Title>
        <Card.Text>{item.description}</Card.Text>
        {item.disabled && <Card.Text className="small">Currently unavailable</Card.Text>}
      </Card.Body>
    </Card>
  );
}
