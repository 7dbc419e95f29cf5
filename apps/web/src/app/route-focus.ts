import { useEffect, useRef } from 'react';
import { useLocation } from '../lib/routing/router';

/**
 * After a move to another page, focus goes to the new page's main region, unless the page took it
 * itself (a field focused on arrival) or a dialog holds it. Otherwise it would stay on the link
 * just used (in the navigation, or gone with the old page), and a keyboard or screen-reader user
 * would have to find the page again from wherever that was. The page arrived on is left alone, and
 * so are changes of the query alone (filters). Scrolling is the router's.
 */
export function useFocusOnNavigation(): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = document.querySelector('main');
    const active = document.activeElement;
    if (!main || main.contains(active) || active?.closest('[role="dialog"]')) return;
    main.focus({ preventScroll: true });
  }, [pathname]);
}
