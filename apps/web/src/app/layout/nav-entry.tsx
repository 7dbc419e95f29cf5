import Nav from 'react-bootstrap/Nav';
import { Link, useActiveLink } from '../../lib/routing/router';
import type { CurrentUser } from '@pra/contracts';
import { WithTooltip } from '../../components/with-tooltip';
import type { ActionItem } from '../../lib/action-items';

interface NavEntryProps {
  item: ActionItem;
  user: CurrentUser | undefined;
}

/** One top-navigation entry mirroring a welcome card: tooltip, active state, disabled state. */
export function NavEntry({ item, user }: NavEntryProps) {
  const tooltipId = `nav-tip-${item.key}`;
  if (item.disabled) {
    return (
      <Nav.Item as="li">
        <span className="nav-link disabled" aria-disabled="true">
          {item.label}
        </span>
      </Nav.Item>
    );
  }
  if (item.target.kind === 'external') {
    return (
      <Nav.Item as="li">
        <WithTooltip id={tooltipId} text={item.description}>
          <Nav.Link href={item.target.href} target="_blank" rel="noopener noreferrer">
            {item.label}
          </Nav.Link>
        </WithTooltip>
      </Nav.Item>
    );
  }
  return <RouteEntry item={item} to={item.target.to} user={user} />;
}

/** An entry for a page of the app, marked while the person is on it (or a page under it). */
function RouteEntry({ item, to, user }: NavEntryProps & { to: string }) {
  return (
    <Nav.Item as="li">
      <WithTooltip id={`nav-tip-${item.key}`} text={item.description}>
        <Nav.Link
          as={Link}
          to={to}
          // Registering on behalf of a vendor needs to know who is registering.
          state={item.key === 'newUser' ? { currentUser: user } : undefined}
          {...useActiveLink(to)}
        >
          {item.label}
        </Nav.Link>
      </WithTooltip>
    </Nav.Item>
  );
}
