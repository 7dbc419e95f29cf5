import { useState } from 'react';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, useLocation } from '../../lib/routing/router';
import type { CurrentUser } from '@pra/contracts';
import { loginUrl, routes } from '@pra/contracts/paths';
import { BrandLogo } from '../../components/brand-logo';
import { WithTooltip } from '../../components/with-tooltip';
import { actionItems } from '../../lib/action-items';
import { signOut } from '../../lib/sign-out';
import { siteLinks } from '../../lib/site-links';
import { useIsAuthenticated } from '../../lib/use-auth-status';
import { useCurrentUser } from '../../lib/use-current-user';
import { NavEntry } from './nav-entry';

/**
 * Where the nav's Log In goes (spec, top navigation): the current-user record's login URL with
 * next set to /welcome, or /home when there is no login URL. The server takes only same-origin
 * paths for next, so "origin plus /welcome" is sent as the path.
 */
export function logInHref(user: Pick<CurrentUser, 'loginUrl'> | undefined): string {
  return user?.loginUrl ? loginUrl(routes.welcome, user.loginUrl) : routes.home;
}

/** Top navigation of the shared layout. */
export function TopNav() {
  const isAuthenticated = useIsAuthenticated();
  const { data: user } = useCurrentUser();
  const { pathname } = useLocation();
  const items = actionItems(isAuthenticated ? user : undefined);
  // On a phone the menu is a panel opened by the toggle. It stays open only on the page where it
  // was opened: a chosen page closes it, as a page load would, instead of leaving the menu over
  // the top half of the new page.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const expanded = openOn === pathname;

  return (
    <Navbar
      expand="lg"
      expanded={expanded}
      onToggle={(open) => setOpenOn(open ? pathname : null)}
      className="top-nav bg-white border-bottom"
      aria-label="Main"
    >
      <Container fluid>
        <Navbar.Brand as={Link} to={isAuthenticated ? routes.welcome : routes.home}>
          <BrandLogo />
        </Navbar.Brand>
        {/* react-bootstrap's toggle does not say whether the menu is open; screen readers need it. */}
        <Navbar.Toggle
          aria-controls="top-nav-items"
          aria-expanded={expanded}
          aria-label="Toggle navigation"
        />
        <Navbar.Collapse id="top-nav-items">
          <Nav as="ul" className="ms-auto align-items-lg-center">
            {items.map((item) => (
              <NavEntry key={item.key} item={item} user={user} />
            ))}
            <Nav.Item as="li">
              <WithTooltip id="nav-tip-contact" text="Request PRA support">
                <Nav.Link href={siteLinks.supportMail}>Contact</Nav.Link>
              </WithTooltip>
            </Nav.Item>
            <Nav.Item as="li">
              {isAuthenticated ? (
                <WithTooltip id="nav-tip-session" text="End your PRA session">
                  <Nav.Link as="button" type="button" data-sign-out onClick={() => void signOut()}>
                    Log Out
                  </Nav.Link>
                </WithTooltip>
              ) : (
                <WithTooltip id="nav-tip-session" text="Start your PRA session">
                  <Nav.Link href={logInHref(user)}>Log In</Nav.Link>
                </WithTooltip>
              )}
            </Nav.Item>
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
