import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { PORTAL_NAME } from './site-links';

/** What a route declares in its `handle`: the page name shown in the browser tab. */
export interface RouteHandle {
  title: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as RouteHandle).title === 'string';
}

/** The title of the deepest matched route that declares one. */
export function useRouteTitle(): string | undefined {
  const matches = useMatches();
  return matches.map((match) => match.handle).findLast(isRouteHandle)?.title;
}

/** Keeps document.title as 'Page · PRA Portal' for the current route. */
export function useDocumentTitle(): void {
  const title = useRouteTitle();
  useEffect(() => {
    document.title = title ? `${title} · ${PORTAL_NAME}` : PORTAL_NAME;
  }, [title]);
}
