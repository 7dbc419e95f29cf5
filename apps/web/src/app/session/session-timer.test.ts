import { describe, expect, it } from 'vitest';
import { formatRemaining, sessionTimerState } from './session-timer';

const now = Date.parse('2025-03-01T10:00:00.000Z');
const inSeconds = (seconds: number) => new Date(now + seconds * 1000).toISOString();

describe('sessionTimerState', () => {
  it('shows nothing more than 180 seconds before expiry', () => {
    expect(sessionTimerState(inSeconds(1800), now)).toEqual({ kind: 'active' });
    expect(sessionTimerState(inSeconds(180.5), now)).toEqual({ kind: 'active' });
  });

  it('warns with the remaining mm:ss under 180 seconds', () => {
    expect(sessionTimerState(inSeconds(180), now)).toEqual({ kind: 'warning', remaining: '03:00' });
    expect(sessionTimerState(inSeconds(179.4), now)).toEqual({ kind: 'warning', remaining: '02:59' });
    expect(sessionTimerState(inSeconds(65), now)).toEqual({ kind: 'warning', remaining: '01:05' });
    expect(sessionTimerState(inSeconds(1), now)).toEqual({ kind: 'warning', remaining: '00:01' });
  });

  it('keeps warning at 00:00 during the 1 second margin after expiry', () => {
    expect(sessionTimerState(inSeconds(0), now)).toEqual({ kind: 'warning', remaining: '00:00' });
    expect(sessionTimerState(inSeconds(-1), now)).toEqual({ kind: 'warning', remaining: '00:00' });
  });

  it('times out once expiry is more than 1 second past', () => {
    expect(sessionTimerState(inSeconds(-1.001), now)).toEqual({ kind: 'expired' });
    expect(sessionTimerState(inSeconds(-600), now)).toEqual({ kind: 'expired' });
  });

  it('shows nothing without a usable expiry', () => {
    expect(sessionTimerState(undefined, now)).toEqual({ kind: 'active' });
    expect(sessionTimerState('not a date', now)).toEqual({ kind: 'active' });
  });
});

describe('formatRemaining', () => {
  it('pads minutes and seconds', () => {
    expect(formatRemaining(0)).toBe('00:00');
    expect(formatRemaining(9.9)).toBe('00:09');
    expect(formatRemaining(600)).toBe('10:00');
  });
  it('never goes negative', () => {
    expect(formatRemaining(-5)).toBe('00:00');
  });
});
