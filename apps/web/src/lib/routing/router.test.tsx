import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryHistory } from './history';
import {
  lazyRoute,
  Link,
  matchRoutes,
  Outlet,
  Router,
  useRouteError,
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
