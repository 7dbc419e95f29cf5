import { useEffect } from 'react';
import { useMatches } from '../lib/routing/router';
import { PORTAL_NAME } from '../lib/site-links';

/** The title of the deepest matched route that declares one. */
export function useRouteTitle(): string | undefined {
  return useMatches().findLast((route) => route.title !== undefined)?.title;
}

/** Keeps document.title as 'Page · PRA Portal' for the current route. */
export function useDocumentTitle(): void {
  const title = useRouteTitle();
  useEffect(() => {
    document.title = title ? `${title} · ${PORTAL_NAME}` : PORTAL_NAME;
  }, [title]);
}
