import Nav from 'react-bootstrap/Nav';
import { Link } from '../../lib/routing/router';
import type { CurrentUser } from '@pra/contracts';
import { WithTooltip } from '../../components/with-tooltip';
import type { ActionItem } from '../../lib/action-items';

interface NavEntryProps {
  item: ActionItem;
  pathname: string;
  user: CurrentUser | undefined;
}

/** One top-navigation entry mirroring a welcome card: tooltip, active state, disabled state. */
export function NavEntry({ item, pathname, user }: NavEntryProps) {
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
  const isActive = pathname.includes(item.target.to);
  return (
    <Nav.Item as="li">
      <WithTooltip id={tooltipId} text={item.description}>
        <Nav.Link
          as={Link}
          to={item.target.to}
          // Registering on behalf of a vendor needs to know who is registering.
          state={item.key === 'newUser' ? { currentUser: user } : undefined}
          active={isActive}
          aria-current={isActive ? 'page' : undefined}
        >
          {item.label}
        </Nav.Link>
      </WithTooltip>
    </Nav.Item>
  );
}
