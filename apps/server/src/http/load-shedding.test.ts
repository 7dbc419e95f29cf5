import { describe, expect, it } from 'vitest';
import { Backlog, loopLagMs } from './load-shedding';

describe('Backlog', () => {
  it('is the time the latest answered requests spent in it, averaged per sample', () => {
    // Samples of 1 ms: answers at a high rate, so the time its waiting callers take to drain at
    // that rate (the test below) stays under the latency here.
    const backlog = new Backlog(0);
    expect(backlog.queueDelayMs(0)).toBe(0);
    for (let i = 0; i < 4; i++) backlog.arrived(0);
    backlog.answered(100, 10);
    backlog.answered(300, 10);
    backlog.sample(1); // mean 200
    expect(backlog.queueDelayMs(20)).toBe(200);
    backlog.answered(400, 30);
    backlog.sample(1); // (200 + 400) / 2
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

  it('counts the callers waiting, unread connections included, at the rate it answers (Little)', () => {
    const backlog = new Backlog(0);
    for (let i = 0; i < 10; i++) backlog.arrived(0);
    // 10 answered in each 250 ms sample, each after 5 ms: 40 a second.
    for (let i = 0; i < 10; i++) backlog.answered(5, 100);
    backlog.sample(250);
    for (let i = 0; i < 10; i++) backlog.arrived(200);
    for (let i = 0; i < 10; i++) backlog.answered(5, 300);
    backlog.sample(250);
    expect(backlog.inFlight).toBe(0);
    // Nobody waiting: no delay, whatever the rate.
    expect(backlog.queueDelayMs(300, 0)).toBe(0);
    // 1 in flight and 99 connections it has not read yet, at 40 answers a second: 2.5 s, although
    // every request it did read was answered in 5 ms.
    backlog.arrived(300);
    expect(backlog.queueDelayMs(300, 99)).toBeCloseTo(2_500, 0);
    expect(backlog.queueDelayMs(300, 0)).toBeCloseTo(25, 0);
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
