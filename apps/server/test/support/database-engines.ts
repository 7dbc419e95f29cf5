// Which database engines the integration tests ran on. A vitest globalSetup (global-setup.ts)
// picks PostgreSQL when it can and gives every worker a folder; each test database leaves a
// marker there for its engine; at the end the setup writes one summary file, which
// `scripts/test-engines.mjs` prints after `npm test` and `.ci/run` uses to refuse a run without
// PostgreSQL.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DbKind } from '../../src/platform/db';

/** The summary of the last run of the server tests (ignored by git). */
export const ENGINES_SUMMARY_FILE = new URL(
  '../../../../test-results/database-engines.json',
  import.meta.url,
);

/** The folder the workers leave markers in, set by the global setup for its run. */
export const ENGINES_DIR_VARIABLE = 'PRA_TEST_ENGINES_DIR';

export interface EnginesSummary {
  /** Engines at least one integration test opened a database on. */
  ran: DbKind[];
  /** Where the PostgreSQL half came from, or why it did not run. */
  postgres: string;
  finishedAt: string;
}

/** Called whenever a test database is opened: notes that this engine ran. */
export function markEngineUsed(kind: DbKind): void {
  const dir = process.env[ENGINES_DIR_VARIABLE];
  if (!dir) return; // outside vitest (e.g. the bench)
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, kind), '');
}
