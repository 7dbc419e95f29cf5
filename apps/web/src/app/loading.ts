import { useSyncExternalStore } from 'react';

// Shared loading flag behind the global overlay; starts false.
let isLoading = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function setLoading(value: boolean): void {
  if (value === isLoading) return;
  isLoading = value;
  listeners.forEach((listener) => listener());
}

/** Shows the overlay while `work` runs, hiding it however the work ends. */
export async function withLoading<T>(work: () => Promise<T>): Promise<T> {
  setLoading(true);
  try {
    return await work();
  } finally {
    setLoading(false);
  }
}

/** Whether the overlay is up; re-renders when the flag changes. */
export function useIsLoading(): boolean {
  // Down in the prerendered landing page (src/prerender.tsx), and while React takes it over.
  return useSyncExternalStore(
    subscribe,
    () => isLoading,
    () => false,
  );
}
