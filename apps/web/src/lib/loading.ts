import { useSyncExternalStore } from 'react';

// How many pieces of work are under way: the overlay is up while any is, not until the first ends.
let running = 0;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function isLoading(): boolean {
  return running > 0;
}

function count(change: 1 | -1): void {
  const was = isLoading();
  running += change;
  if (isLoading() !== was) listeners.forEach((listener) => listener());
}

/**
 * Shows the overlay while `work` runs, hiding it however the work ends. Overlapping work is
 * counted: the overlay goes once the last of it has ended.
 */
export async function withLoading<T>(work: () => Promise<T>): Promise<T> {
  count(1);
  try {
    return await work();
  } finally {
    count(-1);
  }
}

/** Whether the overlay is up; re-renders when the flag changes. */
export function useIsLoading(): boolean {
  // Down in the prerendered landing page (src/prerender/), and while React takes it over.
  return useSyncExternalStore(subscribe, isLoading, () => false);
}
