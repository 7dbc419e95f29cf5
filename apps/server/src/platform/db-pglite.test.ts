import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { migrateToLatest, openDatabase } from './db';

describe('the embedded database', () => {
  it('runs with small shared buffers, on a new folder and when reopened, keeping its data', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pra-pglite-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const dataDir = join(folder, 'db');
    const first = await openDatabase({ dataDir });
    try {
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(first.db);
      expect(rows[0]?.shared_buffers).toBe('16MB');
      await migrateToLatest(first.db);
      await first.db.insertInto('organizations').values({ name: 'Kept Org' }).execute();
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir });
    try {
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(again.db);
      expect(rows[0]?.shared_buffers).toBe('16MB');
      const names = await again.db.selectFrom('organizations').select('name').execute();
      expect(names).toEqual([{ name: 'Kept Org' }]);
    } finally {
      await again.close();
    }
  });

  it('runs in memory with the same settings', async () => {
    const memory = await openDatabase({});
    try {
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(memory.db);
      expect(rows[0]?.shared_buffers).toBe('16MB');
    } finally {
      await memory.close();
    }
  });
});
