// The app's router: a route table of fixed paths (the spec's routes have no parameters), nested
// layouts through <Outlet />, page titles, error boundaries, and pages loaded on demand. Written
// here instead of using react-router, whose ~30 kB gzip alone kept /home over its 90 kB budget
// (see docs/ARCHITECTURE.md).
import {
  Component,
  createContext,
  lazy,
  startTransition,
  Suspense,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import type { NavigationAction, RouterHistory, RouterLocation } from './history';

export interface Route {
  /** An absolute path matched exactly, or '*' for any path. Absent: a layout around `children`. */
  path?: string;
  /** What the route renders; a layout renders its matched child where it puts <Outlet />. */
  element?: ReactNode;
  /** Page name for the browser tab; the deepest matched route with one wins. */
  title?: string;
  /** Rendered in place of this route's subtree when rendering it throws (read it with useRouteError). */
  errorElement?: ReactNode;
  children?: Route[];
  /** Fetches the route's code as soon as it matches, so nested lazy parts load side by side. */
  preload?: () => Promise<unknown>;
}

/** The chain of routes from the outermost layout to the route of `pathname`, or none. */
export function matchRoutes(routes: Route[], pathname: string): Route[] | undefined {
  for (const route of routes) {
    if (route.children) {
      const inner = matchRoutes(route.children, pathname);
      if (inner) return [route, ...inner];
    } else if (route.path === pathname || route.path === '*') {
      return [route];
    }
  }
  return undefined;
}

/**
 * Matches `pathname` and starts loading every lazy part of the match at once, rather than one
 * after the other as each renders.
 */
export function preloadRoutes(routes: Route[], pathname: string): Route[] {
  const matched = matchRoutes(routes, pathname) ?? [];
  matched.forEach((route) => void route.preload?.());
  return matched;
}

/**
 * Starts loading the lazy parts matching `pathname` as preloadRoutes does, but each in a task of
 * its own; resolves once all have started, to their loads. The boot calls it (main.tsx) before
 * React's first render, not in it: starting a part adds a `<link>` for each module and stylesheet it needs
 * (Vite's preload), and a page's parts started together in that render made it one task of 44–150
 * ms on a client three times slower than the bench machine (bench/RESULTS.md, 2026-11-29, night).
 */
export async function preloadRoutesInTurns(routes: Route[], pathname: string): Promise<Promise<unknown>[]> {
  const loads: Promise<unknown>[] = [];
  for (const route of matchRoutes(routes, canonicalPath(pathname)) ?? []) {
    if (!route.preload) continue;
    await new Promise((resolve) => setTimeout(resolve, 0));
    loads.push(route.preload());
  }
  return loads;
}

interface RouterState {
  history: RouterHistory;
  location: RouterLocation;
  matches: Route[];
}

const RouterContext = createContext<RouterState | null>(null);
const DepthContext = createContext(0);
const RouteErrorContext = createContext<unknown>(undefined);

function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('used outside <Router>');
  return router;
}

/** '/welcome/' names the same page as '/welcome': a trailing slash (typed, or in a bookmark) is dropped. */
export function canonicalPath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

/**
 * Renders the routes matching the history's location, and follows it. A new page starts at the
 * top; back and forward return to where that page was scrolled when it was left.
 */
export function Router({ history, routes }: { history: RouterHistory; routes: Route[] }) {
  const [current, setCurrent] = useState<{
    location: RouterLocation;
    action: NavigationAction;
    index: number;
  }>({ location: history.location, action: 'pop', index: history.index });
  // Where each history entry was scrolled when it was left, by its place in the history.
  const scrolled = useRef(new Map<number, number>());
  const shownIndex = useRef(history.index);
  // A transition keeps the current page on screen while the next one's code loads.
  useLayoutEffect(
    () =>
      history.subscribe((action) => {
        scrolled.current.set(shownIndex.current, window.scrollY);
        shownIndex.current = history.index;
        startTransition(() => setCurrent({ location: history.location, action, index: history.index }));
      }),
    [history],
  );
  const { location, action, index } = current;
  const pathname = canonicalPath(location.pathname);
  // The address bar shows the path without the slash (the page is matched without it already).
  useLayoutEffect(() => {
    if (pathname !== location.pathname) history.replace(`${pathname}${location.search}`, location.state);
  }, [history, location, pathname]);
  useEffect(() => {
    window.scrollTo(0, action === 'pop' ? (scrolled.current.get(index) ?? 0) : 0);
  }, [location, action, index]);
  const matches = useMemo(() => preloadRoutes(routes, pathname), [routes, pathname]);
  const state = useMemo(() => ({ history, location, matches }), [history, location, matches]);
  return (
    <RouterContext.Provider value={state}>
      {/* One boundary: a page appears whole, once all its lazy parts are in (React 19 spaces out
          the reveals of nested boundaries, which made pages appear in steps). */}
      <Suspense fallback={null}>
        <RouteLevel depth={0} />
      </Suspense>
    </RouterContext.Provider>
  );
}

function RouteLevel({ depth }: { depth: number }) {
  const { matches, location } = useRouter();
  const route = matches[depth];
  if (!route) return null;
  const content = (
    <DepthContext.Provider value={depth + 1}>{route.element ?? <Outlet />}</DepthContext.Provider>
  );
  if (!route.errorElement) return content;
  return (
    <RouteErrorBoundary fallback={route.errorElement} pathname={location.pathname}>
      {content}
    </RouteErrorBoundary>
  );
}

/** Where a layout shows its matched child route. */
export function Outlet() {
  return <RouteLevel depth={useContext(DepthContext)} />;
}

interface BoundaryProps {
  fallback: ReactNode;
  pathname: string;
  children: ReactNode;
}

/** Shows `fallback` when its routes throw; moving to another path tries them again. */
class RouteErrorBoundary extends Component<BoundaryProps, { error: unknown; pathname: string }> {
  override state = { error: undefined as unknown, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error() };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; pathname: string }) {
    return props.pathname === state.pathname ? null : { error: undefined, pathname: props.pathname };
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <RouteErrorContext.Provider value={this.state.error}>{this.props.fallback}</RouteErrorContext.Provider>
    );
  }
}

/** In an errorElement: what the routes threw. */
export function useRouteError(): unknown {
  return useContext(RouteErrorContext);
}

export function useLocation(): RouterLocation {
  return useRouter().location;
}

/** The matched routes, outermost first. */
export function useMatches(): Route[] {
  return useRouter().matches;
}

export function useSearchParams(): [URLSearchParams] {
  const { search } = useLocation();
  return [useMemo(() => new URLSearchParams(search), [search])];
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

/** navigate('/path', options) within the app, or navigate(-1) to go back. */
export function useNavigate(): (to: string | number, options?: NavigateOptions) => void {
  const { history } = useRouter();
  return useMemo(
    () =>
      (to: string | number, options: NavigateOptions = {}) => {
        if (typeof to === 'number') history.go(to);
        else if (options.replace) history.replace(to, options.state);
        else history.push(to, options.state);
      },
    [history],
  );
}

/** Navigates once rendered (redirects). */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}

type AnchorProps = Omit<React.ComponentPropsWithRef<'a'>, 'href'>;

/** An in-app link: a real <a href>, whose plain left click navigates without reloading. */
export function Link({
  to,
  state,
  replace,
  onClick,
  ...rest
}: AnchorProps & { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  return (
    <a
      {...rest}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        const modified = event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
        const elsewhere = rest.target !== undefined && rest.target !== '_self';
        if (event.defaultPrevented || event.button !== 0 || modified || elsewhere) return;
        event.preventDefault();
        navigate(to, { replace, state });
      }}
    />
  );
}

/**
 * `aria-current` and `active` for a link to `to`: it is the current page, or a page under it.
 * One rule for every navigation that marks where the person is.
 */
export function useActiveLink(to: string): { active: boolean; 'aria-current': 'page' | undefined } {
  const pathname = canonicalPath(useLocation().pathname);
  const active = pathname === to || pathname.startsWith(`${to}/`);
  return { active, 'aria-current': active ? 'page' : undefined };
}

/** Asked before leaving a page whose entries would be lost (useLeaveGuard). */
export const LEAVE_QUESTION = 'Leave this page? What you have entered will be lost.';

/**
 * While `active` (a wizard half filled in), leaving asks first: a link or back and forward in
 * the app with a confirmation, a reload, a typed address or closing the tab with the browser's own.
 */
export function useLeaveGuard(active: boolean): void {
  const { history } = useRouter();
  useEffect(() => {
    if (!active) return;
    const unblock = history.block(() => window.confirm(LEAVE_QUESTION));
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => {
      unblock();
      window.removeEventListener('beforeunload', onUnload);
    };
  }, [active, history]);
}

/** A route part loaded on demand: its element, and the preload the router calls once it matches. */
export function lazyRoute(load: () => Promise<ComponentType>): Pick<Route, 'element' | 'preload'> {
  let loading: Promise<{ default: ComponentType }> | undefined;
  let Loaded: ComponentType | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      Loaded = component;
      return { default: component };
    }));
  const Lazy = lazy(preload);
  // Once loaded (e.g. preloaded during the boot calls), rendered directly: no suspending at all.
  function LazyPart() {
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return { element: <LazyPart />, preload };
}
