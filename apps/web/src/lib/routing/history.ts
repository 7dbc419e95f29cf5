/** Where the app is: the path, the query string (with its '?', or empty) and the entry's state. */
export interface RouterLocation {
  pathname: string;
  search: string;
  state: unknown;
}

export type NavigationAction = 'push' | 'replace' | 'pop';

/** The session history the router follows: the browser's, or an in-memory one for tests. */
export interface RouterHistory {
  readonly location: RouterLocation;
  push(to: string, state?: unknown): void;
  replace(to: string, state?: unknown): void;
  go(delta: number): void;
  subscribe(listener: (action: NavigationAction) => void): () => void;
}

function parse(to: string, state: unknown): RouterLocation {
  const url = new URL(to, 'http://app.invalid');
  return { pathname: url.pathname, search: url.search, state };
}

function listenerSet() {
  const listeners = new Set<(action: NavigationAction) => void>();
  return {
    subscribe: (listener: (action: NavigationAction) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    notify: (action: NavigationAction) => listeners.forEach((listener) => listener(action)),
  };
}

/** The browser's history; state is kept under `usr` in history.state, as react-router did. */
export function createBrowserHistory(): RouterHistory {
  const { subscribe, notify } = listenerSet();
  const read = (): RouterLocation => ({
    pathname: window.location.pathname,
    search: window.location.search,
    state: (window.history.state as { usr?: unknown } | null)?.usr,
  });
  let location = read();
  const change = (action: NavigationAction) => {
    location = read();
    notify(action);
  };
  window.addEventListener('popstate', () => change('pop'));
  return {
    get location() {
      return location;
    },
    push(to, state) {
      window.history.pushState({ usr: state }, '', to);
      change('push');
    },
    replace(to, state) {
      window.history.replaceState({ usr: state }, '', to);
      change('replace');
    },
    go: (delta) => window.history.go(delta),
    subscribe,
  };
}

/** A history of its own, starting at `initial`: for tests. */
export function createMemoryHistory(initial: string): RouterHistory {
  const { subscribe, notify } = listenerSet();
  const entries = [parse(initial, undefined)];
  let index = 0;
  return {
    get location() {
      return entries[index] as RouterLocation;
    },
    push(to, state) {
      entries.splice(index + 1, entries.length, parse(to, state));
      index = entries.length - 1;
      notify('push');
    },
    replace(to, state) {
      entries[index] = parse(to, state);
      notify('replace');
    },
    go(delta) {
      const next = Math.min(entries.length - 1, Math.max(0, index + delta));
      if (next === index) return;
      index = next;
      notify('pop');
    },
    subscribe,
  };
}
