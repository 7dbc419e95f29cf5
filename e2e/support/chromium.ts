/** Debian's Chromium, and flags that keep it from background traffic: for the journeys and the benchmarks. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether the journeys keep pictures for people to look at: the screenshots of the pages
 * (`screenshots()` in the specs' helpers) and the screencast in a failed journey's trace (its DOM
 * snapshots are kept either way). `.ci/run` sets PRA_E2E_SCREENSHOTS=off: nobody looks at them
 * there, and encoding them costs Chromium's CPU on a loaded 2-core machine: about 0.4 s of CPU for
 * each full-page pair, and 24 page loads took 35.5 CPU-s with the trace's screencast against 31.2
 * without it (one throwaway run each, under load). Checks made at phone size run
 * either way.
 */
export const KEEP_PICTURES = process.env.PRA_E2E_SCREENSHOTS !== 'off';
