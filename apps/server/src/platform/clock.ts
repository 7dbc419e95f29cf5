/**
 * The one clock. Everything that decides by time (governance above all: end dates, deadlines,
 * notices) reads `ctx.clock.now()` and passes the instant to SQL as a parameter, so tests and the
 * standalone TEST_CLOCK mode move time instead of waiting.
 */
export interface Clock {
  now(): Date;
}

/** The system clock: production. */
export const systemClock: Clock = { now: () => new Date() };

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/**
 * Milliseconds in an ISO 8601 duration of weeks, days, hours, minutes and seconds (`P15D`,
 * `PT36H`, `P1DT2H`). Years and months have no fixed length and are refused, as is anything else.
 */
export function durationMs(iso: string): number {
  const match = DURATION.exec(iso);
  if (!match || iso === 'P' || iso.endsWith('T')) throw new RangeError(`not a duration: ${iso}`);
  const [w = 0, d = 0, h = 0, m = 0, s = 0] = match.slice(1).map((part) => Number(part ?? 0));
  return ((((w * 7 + d) * 24 + h) * 60 + m) * 60 + s) * 1000;
}

/** A clock tests set and move. It starts at `start` (default: the system time when made). */
export class TestClock implements Clock {
  private at: number;

  constructor(start: Date = new Date()) {
    this.at = start.getTime();
  }

  now(): Date {
    return new Date(this.at);
  }

  set(date: Date): void {
    this.at = date.getTime();
  }

  /** Moves the clock on by a number of milliseconds or an ISO duration (`P14D`). */
  advance(by: number | string): void {
    this.at += typeof by === 'number' ? by : durationMs(by);
  }
}

/**
 * The standalone TEST_CLOCK (never in production: the settings refuse it): the system clock moved
 * by an offset that POST /dev/clock changes and the database keeps (portal_settings), so a restart
 * keeps the moved time.
 */
export class OffsetClock implements Clock {
  constructor(private offset = 0) {}

  now(): Date {
    return new Date(systemClock.now().getTime() + this.offset);
  }

  get offsetMs(): number {
    return this.offset;
  }

  /** The offset that makes `now()` answer `at`. */
  offsetFor(at: Date): number {
    return at.getTime() - systemClock.now().getTime();
  }

  setOffset(ms: number): void {
    this.offset = ms;
  }
}
