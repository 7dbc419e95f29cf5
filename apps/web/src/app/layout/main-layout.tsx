import '../../styles/layout.compiled.css';
import { Outlet } from '../../lib/routing/router';
import { SessionTimeout } from '../session/session-timeout';
import { SystemMessageBanner } from '../../components/system-message-banner';
import { useIsAuthenticated } from '../../lib/use-auth-status';
import { SiteFooter } from '../../components/site-footer';
import { TopNav } from './top-nav';

/** The shared layout: navigation, banners, the page, the footer. */
export function MainLayout() {
  const isAuthenticated = useIsAuthenticated();
  return (
    <>
      <a href="#main-content" className="visually-hidden-focusable skip-link">
        Skip to main content
      </a>
      <header>
        <TopNav />
      </header>
      <main id="main-content" className="container py-4 flex-grow-1" tabIndex={-1}>
        <SystemMessageBanner />
        {isAuthenticated && <SessionTimeout />}
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
