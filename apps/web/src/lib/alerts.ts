import { useSyncExternalStore } from 'react';

export type AlertSeverity = 'success' | 'danger';

/** One toast. `id` keys it while several are on screen. */
export interface Alert {
  id: number;
  message: string;
  severity: AlertSeverity;
}

// A tiny module store: toasts can be raised from anywhere (query callbacks, plain functions).
let alerts: readonly Alert[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function update(next: readonly Alert[]): void {
  alerts = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows a toast at top right; it hides itself after 6 s. */
export function showAlert(message: string, severity: AlertSeverity = 'danger'): void {
  if (!message) return;
  update([...alerts, { id: nextId++, message, severity }]);
}

export function dismissAlert(id: number): void {
  update(alerts.filter((alert) => alert.id !== id));
}

/** The toasts on screen; re-renders when one is added or removed. */
export function useAlerts(): readonly Alert[] {
  // None in the prerendered landing page (src/prerender/), nor while React takes it over.
  return useSyncExternalStore(
    subscribe,
    () => alerts,
    () => noAlerts,
  );
}

const noAlerts: readonly Alert[] = [];
