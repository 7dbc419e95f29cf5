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
  /** The current entry's place in the session history (the router keeps scroll positions by it). */
  readonly index: number;
  push(to: string, state?: unknown): void;
  replace(to: string, state?: unknown): void;
  go(delta: number): void;
  subscribe(listener: (action: NavigationAction) => void): () => void;
  /**
   * While `allow` is registered, a push or a move back or forward happens only when it answers
   * true (a move the browser already made is undone). Replacing, which redirects use, is not asked.
   */
  block(allow: () => boolean): () => void;
}

function parse(to: string, state: unknown): RouterLocation {
  const url = new URL(to, 'http://app.invalid');
  return { pathname: url.pathname, search: url.search, state };
}

function listenerSet() {
  const listeners = new Set<(action: NavigationAction) => void>();
  const blockers = new Set<() => boolean>();
  return {
    subscribe: (listener: (action: NavigationAction) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    notify: (action: NavigationAction) => listeners.forEach((listener) => listener(action)),
    block: (allow: () => boolean) => {
      blockers.add(allow);
      return () => void blockers.delete(allow);
    },
    allowed: () => [...blockers].every((allow) => allow()),
  };
}

type EntryState = { usr?: unknown; idx?: number } | null;

/**
 * The browser's history; state is kept under `usr` in history.state, as react-router did, with the
 * entry's place under `idx`. The router restores scroll positions itself ('manual').
 */
export function createBrowserHistory(): RouterHistory {
  const { subscribe, notify, block, allowed } = listenerSet();
  const entry = () => window.history.state as EntryState;
  const read = (): RouterLocation => ({
    pathname: window.location.pathname,
    search: window.location.search,
    state: entry()?.usr,
  });
  window.history.scrollRestoration = 'manual';
  let index = entry()?.idx ?? 0;
  if (entry()?.idx === undefined) window.history.replaceState({ ...entry(), idx: index }, '');
  let location = read();
  const change = (action: NavigationAction) => {
    location = read();
    index = entry()?.idx ?? 0;
    notify(action);
  };
  // A refused back or forward is undone by moving the other way; that move is not news.
  let undoing = false;
  window.addEventListener('popstate', () => {
    const delta = index - (entry()?.idx ?? 0);
    if (undoing) undoing = false;
    else if (allowed()) change('pop');
    else {
      undoing = true;
      window.history.go(delta);
    }
  });
  return {
    get location() {
      return location;
    },
    get index() {
      return index;
    },
    push(to, state) {
      if (!allowed()) return;
      window.history.pushState({ usr: state, idx: index + 1 }, '', to);
      change('push');
    },
    replace(to, state) {
      window.history.replaceState({ usr: state, idx: index }, '', to);
      change('replace');
    },
    go: (delta) => window.history.go(delta),
    subscribe,
    block,
  };
}

/** A history of its own, starting at `initial`: for tests. */
export function createMemoryHistory(initial: string): RouterHistory {
  const { subscribe, notify, block, allowed } = listenerSet();
  const entries = [parse(initial, undefined)];
  let index = 0;
  return {
    get location() {
      return entries[index] as RouterLocation;
    },
    get index() {
      return index;
    },
    push(to, state) {
      if (!allowed()) return;
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
      if (next === index || !allowed()) return;
      index = next;
      notify('pop');
    },
    subscribe,
    block,
  };
}
