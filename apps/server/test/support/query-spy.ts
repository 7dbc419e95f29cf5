import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { vi } from 'vitest';
import type { DbKind } from '../../src/platform/db';

/** A spy on the method every statement of the engine passes through: one call per round trip. */
export function spyOnQueries(kind: DbKind) {
  return kind === 'pglite' ? vi.spyOn(PGlite.prototype, 'query') : vi.spyOn(pg.Client.prototype, 'query');
}
