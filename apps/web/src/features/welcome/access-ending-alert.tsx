import Alert from 'react-bootstrap/Alert';
import { accessExpiryMessages } from '@pra/contracts/access-expiry';
import { routes } from '@pra/contracts/paths';
import { useCurrentAccess } from '../../components/access/use-access';
import { Link } from '../../lib/routing/router';

/** GOVERNANCE.md §3.2: the welcome alert lists the grants ending within 14 days. */
const ALERT_DAYS = 14;

/**
 * Welcome (vendor): a warning above the cards, one line per grant ending within 14 days, "Your
 * access to {Org} ends on {date} ({n} days left). [Request extension]"; the link opens Manage
 * Access with that organization's extension dialog. Days left are the server's count.
 */
export function AccessEndingAlert({ username }: { username: string }) {
  const { data } = useCurrentAccess(username);
  const ending = (data ?? []).filter(
    (role) => role.endsOn !== undefined && role.daysLeft !== undefined && role.daysLeft <= ALERT_DAYS,
  );
  if (ending.length === 0) return null;
  return (
    <Alert variant="warning" className="access-ending-alert">
      <ul className="list-unstyled mb-0">
        {ending.map((role) => (
          <li key={role.name}>
            {accessExpiryMessages.endingAlert(role.display, role.endsOn!, role.daysLeft!)}{' '}
            {role.extensionPending ? (
              <span>An extension request is pending.</span>
            ) : (
              <Link
                className="alert-link"
                to={`${routes.requestAccess}?extend=${encodeURIComponent(role.name)}`}
                aria-label={`Request extension for ${role.display}`}
              >
                Request extension
              </Link>
            )}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
