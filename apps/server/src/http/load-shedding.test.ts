import { describe, expect, it } from 'vitest';
import { Backlog, loopLagMs } from './load-shedding';

describe('Backlog', () => {
  it('is the time the latest answered requests spent in it, averaged per sample', () => {
    const backlog = new Backlog(0);
    expect(backlog.queueDelayMs(0)).toBe(0);
    for (let i = 0; i < 4; i++) backlog.arrived(0);
    backlog.answered(100, 10);
    backlog.answered(300, 10);
    backlog.sample(); // mean 200
    expect(backlog.queueDelayMs(20)).toBe(200);
    backlog.answered(400, 30);
    backlog.sample(); // (200 + 400) / 2
    expect(backlog.queueDelayMs(40)).toBe(300);
    backlog.answered(1, 50);
    expect(backlog.inFlight).toBe(0);
    // Nothing in flight: nothing to wait behind, and an idle instance forgets its past.
    expect(backlog.queueDelayMs(60)).toBe(0);
    backlog.sample();
    backlog.sample(); // the 300 (with the 1 ms answer averaged in) halves while idle
    backlog.arrived(1_000);
    expect(backlog.queueDelayMs(1_000)).toBeLessThan(100);
  });

  it('grows while requests are in flight and none is answered: a backlog that does not move', () => {
    const backlog = new Backlog(0);
    backlog.arrived(5_000); // the first after a long idle time is not stalled by it
    expect(backlog.queueDelayMs(5_000)).toBe(0);
    backlog.arrived(5_010);
    expect(backlog.queueDelayMs(5_900)).toBe(900);
    backlog.answered(900, 5_900);
    expect(backlog.queueDelayMs(5_950)).toBe(50);
  });

  it('never counts below zero', () => {
    const backlog = new Backlog();
    backlog.answered(1);
    expect(backlog.inFlight).toBe(0);
  });
});

describe('loopLagMs', () => {
  it("is the lag timer's mean delay past its 10 ms resolution, never below zero", () => {
    expect(loopLagMs(10)).toBe(0);
    expect(loopLagMs(4)).toBe(0);
    expect(loopLagMs(260)).toBe(250);
  });

  it('is infinite for a sample in which the timer never ran: the loop was held throughout', () => {
    expect(loopLagMs(NaN)).toBe(Infinity);
  });
});
