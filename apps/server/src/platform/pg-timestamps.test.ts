import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz, TIMESTAMPTZ_OID } from './pg-timestamps';
import './pg-database';

// pg's own parser, which the fast reading must always agree with.
const general = (text: string) =>
  (parseTimestamptz as unknown as Record<symbol, (text: string) => unknown>)[
    Object.getOwnPropertySymbols(parseTimestamptz)[0]!
  ]!(text);

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A random timestamptz as PostgreSQL writes it (DateStyle ISO) in some session time zone. */
function randomText(random: () => number): string {
  const int = (below: number) => Math.floor(random() * below);
  const year = 100 + int(9900);
  const fraction = int(7) === 0 ? '' : `.${pad(int(10 ** 6), 6).slice(0, 1 + int(6))}`;
  const offsetHours = int(15);
  const offset =
    `${int(2) ? '+' : '-'}${pad(offsetHours, 2)}` +
    (int(3) === 0 ? `:${pad(int(60), 2)}` : '') +
    (int(10) === 0 ? `:30:15` : '');
  return (
    `${pad(year, 4)}-${pad(1 + int(12), 2)}-${pad(1 + int(28), 2)} ` +
    `${pad(int(24), 2)}:${pad(int(60), 2)}:${pad(int(60), 2)}${fraction}${offset}`
  );
}

/** A small seeded generator, so that a failure can be run again. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('parseTimestamptz', () => {
  it('is the parser pg uses for timestamptz once the database module is loaded', () => {
    expect(pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text')).toBe(parseTimestamptz);
  });

  it('reads what PostgreSQL writes as pg’s own parser does', () => {
    expect((parseTimestamptz('2026-11-29 15:31:08.123456+00') as Date).toISOString()).toBe(
      '2026-11-29T15:31:08.123Z',
    );
    expect((parseTimestamptz('2026-11-29 15:31:08+05:30') as Date).toISOString()).toBe(
      '2026-11-29T10:01:08.000Z',
    );
    expect((parseTimestamptz('2026-01-01 00:00:00.9-01') as Date).toISOString()).toBe(
      '2026-01-01T01:00:00.900Z',
    );
    const random = seeded(31);
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(random);
      expect((parseTimestamptz(text) as Date).getTime(), text).toBe((general(text) as Date).getTime());
    }
  });

  it('leaves every other form to pg’s parser', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0044-03-15 12:00:00+00 BC',
      '0099-12-31 23:59:59.999+00',
      '12026-11-29 15:31:08+00',
      '2026-11-29 15:31:08.123456+00 BC',
      '2026-11-29 15:31:08.+00',
      '2026-11-29 15:31:08.123456',
      '2026-11-29 15:31:08.123456+0',
      '2026-11-29 15:31:08.123456+00:',
      '2026-11-29T15:31:08.123456+00',
      '2026-11-2x 15:31:08.123456+00',
    ]) {
      const ours = parseTimestamptz(text);
      const theirs = general(text);
      expect(ours instanceof Date ? ours.getTime() : ours, text).toEqual(
        theirs instanceof Date ? theirs.getTime() : theirs,
      );
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('timestamptz read from PostgreSQL', () => {
  it('arrives as the instants PostgreSQL holds, in any session time zone', async () => {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham']) {
        await client.query(`set time zone '${zone}'`);
        const { rows } = await client.query<{ at: Date; epoch: string }>(
          `select t as at, (extract(epoch from t) * 1000)::text as epoch
             from (values ('2026-11-29 15:31:08.123456+00'::timestamptz), ('1900-02-28 23:59:59.9+00'),
                          ('2000-02-29 12:00:00+00'), (now())) v(t)`,
        );
        for (const row of rows) expect(row.at.getTime(), zone).toBe(Math.trunc(Number(row.epoch)));
      }
    } finally {
      await client.end();
    }
  });
});
