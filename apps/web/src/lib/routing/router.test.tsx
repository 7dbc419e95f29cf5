import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBrowserHistory, createMemoryHistory } from './history';
import {
  lazyRoute,
  Link,
  matchRoutes,
  Outlet,
  preloadRoutesInTurns,
  Router,
  useRouteError,
  useActiveLink,
  useLeaveGuard,
  useSearchParams,
  type Route,
} from './router';

function Layout() {
  return (
    <div data-testid="layout">
      <Outlet />
    </div>
  );
}

function Boom(): never {
  throw new Error('page broke');
}

function ShowError() {
  return <p>caught: {(useRouteError() as Error).message}</p>;
}

function Query() {
  const [params] = useSearchParams();
  return <p>code={params.get('code')}</p>;
}

const routes: Route[] = [
  { path: '/', element: <Link to="/a?code=7">to a</Link> },
  {
    element: <Layout />,
    children: [
      {
        errorElement: <ShowError />,
        children: [
          { path: '/a', element: <Query />, title: 'A' },
          { path: '/boom', element: <Boom /> },
          { path: '/lazy', ...lazyRoute(async () => () => <p>lazy page</p>) },
          { path: '*', element: <p>not found</p> },
        ],
      },
    ],
  },
];

describe('matchRoutes', () => {
  it('returns the chain of layouts down to the route of the path', () => {
    expect(matchRoutes(routes, '/a')?.map((r) => r.path ?? 'layout')).toEqual(['layout', 'layout', '/a']);
    expect(matchRoutes(routes, '/')?.map((r) => r.path)).toEqual(['/']);
  });
  it("falls through to '*' and matches nothing outside it", () => {
    expect(matchRoutes(routes, '/nope')?.at(-1)?.path).toBe('*');
    expect(matchRoutes([{ path: '/x' }], '/y')).toBeUndefined();
  });
});

describe('preloadRoutesInTurns', () => {
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('starts each lazy part of the match in a task of its own, outermost first, and resolves to their loads', async () => {
    const started: string[] = [];
    const part = (name: string) => ({
      preload: () => {
        started.push(name);
        return Promise.resolve(name);
      },
    });
    const tree: Route[] = [
      { ...part('layout'), children: [{ children: [{ path: '/p', ...part('page') }] }] },
      { path: '/q', ...part('other') },
    ];
    const turns = preloadRoutesInTurns(tree, '/p/');
    expect(started).toEqual([]);
    // The task queued here runs after the first part's and before the second part's.
    await nextTask();
    expect(started).toEqual(['layout']);
    expect(await Promise.all(await turns)).toEqual(['layout', 'page']);
    expect(started).toEqual(['layout', 'page']);
  });

  it('starts nothing for a path no route matches', async () => {
    const preload = vi.fn(() => Promise.resolve());
    expect(await preloadRoutesInTurns([{ path: '/x', preload }], '/y')).toEqual([]);
    expect(preload).not.toHaveBeenCalled();
  });
});

describe('Router', () => {
  it('follows a link click without a reload, keeping the query string', async () => {
    const history = createMemoryHistory('/');
    render(<Router history={history} routes={routes} />);
    fireEvent.click(screen.getByRole('link', { name: 'to a' }));
    expect(await screen.findByText('code=7')).toBeTruthy();
    expect(history.location).toMatchObject({ pathname: '/a', search: '?code=7' });
    expect(screen.getByTestId('layout')).toBeTruthy();
  });

  it("shows the page of '/a/' (trailing slash) and drops the slash from the address", async () => {
    const history = createMemoryHistory('/a/?code=9');
    render(<Router history={history} routes={routes} />);
    expect(await screen.findByText('code=9')).toBeTruthy();
    expect(screen.queryByText('not found')).toBeNull();
    expect(history.location).toMatchObject({ pathname: '/a', search: '?code=9' });
  });

  it('leaves modified clicks (new tab) to the browser', () => {
    const history = createMemoryHistory('/');
    render(<Router history={history} routes={routes} />);
    fireEvent.click(screen.getByRole('link', { name: 'to a' }), { ctrlKey: true });
    expect(history.location.pathname).toBe('/');
  });

  it('shows the errorElement when a page throws, and recovers on the next path', async () => {
    const history = createMemoryHistory('/boom');
    const quiet = console.error;
    console.error = () => undefined;
    try {
      render(<Router history={history} routes={routes} />);
      expect(await screen.findByText('caught: page broke')).toBeTruthy();
      expect(screen.getByTestId('layout')).toBeTruthy();
      act(() => history.push('/nope'));
      expect(await screen.findByText('not found')).toBeTruthy();
    } finally {
      console.error = quiet;
    }
  });

  it('renders a lazy page once its code is in, and goes back', async () => {
    const history = createMemoryHistory('/a');
    render(<Router history={history} routes={routes} />);
    act(() => history.push('/lazy'));
    expect(await screen.findByText('lazy page')).toBeTruthy();
    act(() => history.go(-1));
    expect(await screen.findByText('code=')).toBeTruthy();
  });
});

describe('memory history', () => {
  it('drops forward entries on push and keeps state', () => {
    const history = createMemoryHistory('/one');
    history.push('/two', { from: 'one' });
    history.go(-1);
    history.push('/three');
    history.go(1);
    expect(history.location.pathname).toBe('/three');
    history.go(-1);
    expect(history.location.pathname).toBe('/one');
    history.replace('/uno', 'kept');
    expect(history.location).toEqual({ pathname: '/uno', search: '', state: 'kept' });
  });
});

function Tab({ to }: { to: string }) {
  const props = useActiveLink(to);
  return (
    <Link to={to} aria-current={props['aria-current']} data-active={String(props.active)}>
      {to}
    </Link>
  );
}

function Wizard() {
  const [params] = useSearchParams();
  useLeaveGuard(params.get('filled') === '1');
  return <Link to="/a">away</Link>;
}

const moreRoutes: Route[] = [
  { path: '/wizard', element: <Wizard /> },
  ...['/admin', '/admin/people', '/admin/people/x'].map((path) => ({
    path,
    element: ['/admin', '/admin/people', '/admin/mail'].map((to) => <Tab key={to} to={to} />),
  })),
  ...routes,
];

describe('useActiveLink', () => {
  it('marks the link of the current page and of the pages under it, trailing slash or not', async () => {
    const history = createMemoryHistory('/admin/people/');
    render(<Router history={history} routes={moreRoutes} />);
    const state = () =>
      screen
        .getAllByRole('link')
        .map((l) => [l.textContent, l.dataset.active, l.getAttribute('aria-current')]);
    await screen.findByText('/admin/mail');
    expect(state()).toEqual([
      ['/admin', 'true', 'page'],
      ['/admin/people', 'true', 'page'],
      ['/admin/mail', 'false', null],
    ]);
    act(() => history.push('/admin'));
    await waitFor(() => expect(state()[1]).toEqual(['/admin/people', 'false', null]));
    expect(state()[0]).toEqual(['/admin', 'true', 'page']);
  });
});

describe('scroll on navigation', () => {
  afterEach(() => vi.restoreAllMocks());

  it('starts a new page at the top, and back and forward return to where each page was left', async () => {
    let y = 0;
    vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => y);
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const history = createMemoryHistory('/a');
    render(<Router history={history} routes={routes} />);
    await screen.findByText('code=');
    y = 300;
    act(() => history.push('/lazy'));
    await screen.findByText('lazy page');
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    y = 50;
    act(() => history.go(-1));
    await screen.findByText('code=');
    await waitFor(() => expect(scrollTo).toHaveBeenLastCalledWith(0, 300));
    y = 300;
    act(() => history.go(1));
    await screen.findByText('lazy page');
    await waitFor(() => expect(scrollTo).toHaveBeenLastCalledWith(0, 50));
  });
});

describe('useLeaveGuard', () => {
  afterEach(() => vi.restoreAllMocks());

  it('asks before a link or back leaves a half-filled page, and stays when the answer is no', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const history = createMemoryHistory('/a');
    history.push('/wizard?filled=1');
    render(<Router history={history} routes={moreRoutes} />);
    fireEvent.click(await screen.findByRole('link', { name: 'away' }));
    expect(confirm).toHaveBeenCalledWith('Leave this page? What you have entered will be lost.');
    act(() => history.go(-1));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(history.location.pathname).toBe('/wizard');
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    confirm.mockReturnValue(true);
    fireEvent.click(screen.getByRole('link', { name: 'away' }));
    expect(await screen.findByText('code=')).toBeTruthy();
    expect(history.location.pathname).toBe('/a');
    // Once the page is left, nothing asks any more.
    const later = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
  });

  it('asks nothing while nothing is filled in', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const history = createMemoryHistory('/wizard');
    render(<Router history={history} routes={moreRoutes} />);
    fireEvent.click(await screen.findByRole('link', { name: 'away' }));
    expect(await screen.findByText('code=')).toBeTruthy();
    expect(confirm).not.toHaveBeenCalled();
  });

  it("undoes a refused back in the browser's history", async () => {
    window.history.replaceState(null, '', '/start');
    const history = createBrowserHistory();
    history.push('/one');
    history.push('/two');
    const unblock = history.block(() => false);
    const popped = () =>
      new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    const back = popped();
    window.history.back();
    await back;
    // The refused move is undone: the browser comes back to /two, and the router never left it.
    await popped();
    expect(window.location.pathname).toBe('/two');
    expect(history.location.pathname).toBe('/two');
    unblock();
    const allowed = popped();
    window.history.back();
    await allowed;
    expect(history.location.pathname).toBe('/one');
    expect(history.index).toBe(1);
  });
});
