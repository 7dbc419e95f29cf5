import { describe, expect, it } from 'vitest';
import { durationMs, systemClock, TestClock } from './clock';

describe('clock', () => {
  it('reads ISO durations of weeks, days, hours, minutes and seconds', () => {
    expect(durationMs('P15D')).toBe(15 * 86_400_000);
    expect(durationMs('P2W')).toBe(14 * 86_400_000);
    expect(durationMs('PT36H')).toBe(36 * 3_600_000);
    expect(durationMs('P1DT2H3M4S')).toBe(86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4_000);
  });

  it('refuses what is not a fixed-length duration', () => {
    for (const bad of ['P', 'PT', 'P1M', 'P1Y', '15D', 'P-1D', 'P1.5D', '']) {
      expect(() => durationMs(bad), bad).toThrow(RangeError);
    }
  });

  it('is set and moved by tests, and the system clock follows real time', () => {
    const clock = new TestClock(new Date('2027-03-01T09:00:00Z'));
    clock.advance('P15D');
    expect(clock.now().toISOString()).toBe('2027-03-16T09:00:00.000Z');
    clock.advance(1000);
    expect(clock.now().toISOString()).toBe('2027-03-16T09:00:01.000Z');
    clock.set(new Date('2027-01-01T00:00:00Z'));
    expect(clock.now().toISOString()).toBe('2027-01-01T00:00:00.000Z');
    const before = Date.now();
    expect(systemClock.now().getTime()).toBeGreaterThanOrEqual(before);
  });
});
