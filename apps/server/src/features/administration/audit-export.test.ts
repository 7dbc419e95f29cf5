import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { auditExport, BATCH_ROWS, BATCH_TEXT, nextBatchRows } from './audit-export';

// Issue 31: the audit export reads in keyset batches bounded by their text as well as their count
// (an export worker's heap holds one batch). Whatever the batches' sizes, the file has every
// matching event once, newest first.

describe('the size of the next batch', () => {
  it('reads as many events as come to about BATCH_TEXT characters at the last batch’s width', () => {
    expect(nextBatchRows(100, 10_000)).toBe(BATCH_ROWS); // 100 characters an event: the row cap
    expect(nextBatchRows(100, 1_000_000)).toBe(100); // 10,000 characters an event
    expect(nextBatchRows(1000, 4_000_000)).toBe(250);
    expect(nextBatchRows(10, 50 * BATCH_TEXT)).toBe(1); // one event wider than a batch: one at a time
    expect(nextBatchRows(0, 0)).toBe(BATCH_ROWS);
  });
});

describe.each(testDatabaseKinds)('the audit export’s batches on %s', (kind) => {
  let t: TestApp;
  const reads: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { onStatement: (text) => reads.push(text) });
    // 1,500 events at one instant (the keyset's tie broken by id), a third of them 3,000
    // characters wide, in random order of id: the batches shrink and grow as widths change.
    await sql`
      insert into audit_events (action, outcome, details)
      select 'test.batches', 'success',
        jsonb_build_object('n', n, 'text', case when n between 501 and 1000 then repeat('wide text ', 300) else '' end)
      from generate_series(1, 1500) n`.execute(t.ctx.db);
  });
  afterAll(async () => t?.close());

  it('writes every event once, newest first, across batches of changing size', async () => {
    reads.length = 0;
    let text = '';
    for await (const piece of auditExport(t.ctx.db, { action: 'test.batches' }, 'jsonl')) text += piece;
    const numbers = text
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { details: { n: number } }).details.n);
    // The trail's own order (newest first, ties by id), read in one statement.
    const expected = await sql<{ n: number }>`
      select (details->>'n')::int as n from audit_events where action = 'test.batches'
      order by occurred_at desc, id desc`.execute(t.ctx.db);
    expect(numbers).toEqual(expected.rows.map((row) => row.n));
    expect(new Set(numbers).size).toBe(1500);
    // 100 first (BATCH_FIRST), then up to 1,000, fewer while the events are wide: more reads than
    // batches of 1,000 would need.
    const auditReads = reads.filter((statement) => /from "?audit_events"?/.test(statement));
    expect(auditReads.length).toBeGreaterThan(Math.ceil(1500 / BATCH_ROWS) + 1);
  });

  it('writes the CSV header alone when nothing matches', async () => {
    let text = '';
    for await (const piece of auditExport(t.ctx.db, { action: 'test.none' }, 'csv')) text += piece;
    expect(text).toBe('occurredAt,action,outcome,actor,target,organization,clientAddress,details\r\n');
  });
});
