import pg from 'pg';

// timestamptz values as PostgreSQL sends them in text (DateStyle ISO, the default), read into
// Dates without pg's general parser in the common case. Every signed-in call reads a session row
// with a dozen of them (store/session-lookup.ts): pg's parser, three regular expressions per value,
// was some 6 % of the portal's CPU under 50 sessions' GET /api/user (bench/RESULTS.md, 2026-11-29).

export const TIMESTAMPTZ_OID = 1184;

const ORIGINAL = Symbol('pg timestamptz parser');
type Parser = ((text: string) => unknown) & { [ORIGINAL]?: (text: string) => unknown };

/** pg's own parser, even when this module is evaluated again in the same process (tests). */
const current = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as Parser;
const general: (text: string) => unknown = current[ORIGINAL] ?? current;

const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;

/** The digit at `at`, or NaN when it is no digit (the NaN then fails the whole value's check). */
function digit(text: string, at: number): number {
  const code = text.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : NaN;
}

function twoDigits(text: string, at: number): number {
  return digit(text, at) * 10 + digit(text, at + 1);
}

/**
 * `YYYY-MM-DD HH:MM:SS[.f…]±HH[:MM[:SS]]` with a year from 100 to 9999, read directly; anything
 * else (infinity, BC dates, years past 9999 or before 100, another DateStyle) goes to pg's parser.
 * Milliseconds are truncated as pg's parser truncates them.
 */
export const parseTimestamptz: Parser = (text: string) => {
  const fast = readIso(text);
  return fast ?? general(text);
};
parseTimestamptz[ORIGINAL] = general;

function readIso(text: string): Date | null {
  const length = text.length;
  if (
    length < 22 ||
    text.charCodeAt(4) !== DASH ||
    text.charCodeAt(7) !== DASH ||
    text.charCodeAt(10) !== SPACE ||
    text.charCodeAt(13) !== COLON ||
    text.charCodeAt(16) !== COLON
  )
    return null;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  let at = 19;
  let ms = 0;
  if (text.charCodeAt(at) === DOT) {
    at += 1;
    const start = at;
    while (at < length && digit(text, at) >= 0) {
      if (at - start < 3) ms = ms * 10 + digit(text, at);
      at += 1;
    }
    if (at === start) return null;
    for (let read = at - start; read < 3; read++) ms *= 10;
  }
  // The offset: a sign, hours, then optionally minutes and seconds, each after a colon.
  const sign = text.charCodeAt(at);
  if (sign !== PLUS && sign !== DASH) return null;
  const parts = [twoDigits(text, at + 1)];
  at += 3;
  while (at < length && parts.length < 3) {
    if (text.charCodeAt(at) !== COLON) return null;
    parts.push(twoDigits(text, at + 1));
    at += 3;
  }
  if (at !== length) return null;
  const offsetSeconds =
    (parts[0]! * 3600 + (parts[1] ?? 0) * 60 + (parts[2] ?? 0)) * (sign === PLUS ? 1 : -1);
  if (!(year >= 100) || !Number.isFinite(ms + month + day + hour + minute + second + offsetSeconds))
    return null;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetSeconds * 1000);
}
