import { describe, expect, it } from 'vitest';
import { Backlog, loopLagMs, QUEUE_ALONE_MIN_IN_FLIGHT, QueueAlone } from './load-shedding';

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

  it('keeps the rate it answers at over samples with nobody to answer: a quiet spell is no slowness', () => {
    const backlog = new Backlog(0);
    for (let i = 0; i < 10; i++) backlog.arrived(0);
    for (let i = 0; i < 10; i++) backlog.answered(5, 100);
    backlog.sample(250); // 40 a second
    for (let i = 0; i < 40; i++) backlog.sample(250); // ten quiet seconds
    for (let i = 0; i < 10; i++) backlog.arrived(10_000);
    // 10 waiting at 40 a second, not at a rate halved forty times.
    expect(backlog.queueDelayMs(10_000)).toBeCloseTo(250, 0);
    // Requests in flight and none answered: that is slowness, and the rate goes down.
    backlog.sample(250);
    expect(backlog.queueDelayMs(10_250)).toBeCloseTo(500, 0);
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

describe('QueueAlone', () => {
  /** Limit 1 s, samples of 250 ms: engages past 2 s in 2 samples, ends after 4 at or under 1 s. */
  const queue = QUEUE_ALONE_MIN_IN_FLIGHT;
  const run = (shedding: QueueAlone, samples: Array<[delayMs: number, inFlight: number]>) =>
    samples.map(([delayMs, inFlight]) => shedding.sample(delayMs, inFlight));

  it('engages when the queueing delay stays past twice the limit, whatever the lag', () => {
    const shedding = new QueueAlone(1_000, 250);
    expect(
      run(shedding, [
        [2_500, queue],
        [2_600, 400],
      ]),
    ).toEqual([false, true]);
    expect(shedding.engaged).toBe(true);
  });

  it('does not engage for one sample past the bound, nor for a delay between the limit and twice it', () => {
    const shedding = new QueueAlone(1_000, 250);
    expect(
      run(shedding, [
        [5_000, 400], // a spike
        [500, 400],
        [5_000, 400],
        [1_900, 400], // past the limit, not far past
        [2_000, 400],
        [1_999, 400],
      ]),
    ).toEqual([false, false, false, false, false, false]);
  });

  it('does not engage for a few long calls in flight (an export), however long they take', () => {
    const shedding = new QueueAlone(1_000, 250);
    const exports: Array<[number, number]> = Array.from({ length: 40 }, (_, i) => [i * 250, queue - 1]);
    expect(run(shedding, exports).some(Boolean)).toBe(false);
  });

  it('once engaged, sheds while the delay is between the limit and twice it, and on through a short calm: no flapping', () => {
    const shedding = new QueueAlone(1_000, 250);
    run(shedding, [
      [3_000, 400],
      [3_000, 400],
    ]);
    // Shedding drains the queue: the delay falls under twice the limit, then under the limit.
    expect(
      run(shedding, [
        [1_800, 300],
        [1_200, 200],
        [900, 100], // calm: 1
        [600, 60], // 2
        [300, 30], // 3
        [1_100, 30], // past the limit again: the calm starts over
        [400, 20], // 1
        [200, 12], // 2
        [0, 0], // 3
      ]),
    ).toEqual(Array(9).fill(true));
    // Calm for as long as the limit (4 samples of 250 ms): it ends.
    expect(shedding.sample(0, 0)).toBe(false);
    // And engages again only as it did the first time.
    expect(
      run(shedding, [
        [1_500, 400],
        [2_500, 400],
        [2_500, 400],
      ]),
    ).toEqual([false, false, true]);
  });

  it('ends after at least two calm samples, whatever the limit', () => {
    const shedding = new QueueAlone(100, 250);
    run(shedding, [
      [300, 400],
      [300, 400],
    ]);
    expect(
      run(shedding, [
        [0, 0],
        [0, 0],
      ]),
    ).toEqual([true, false]);
  });

  it('never engages with a limit of 0 (lag alone sheds)', () => {
    const shedding = new QueueAlone(0, 250);
    expect(
      run(shedding, [
        [60_000, 5_000],
        [60_000, 5_000],
        [60_000, 5_000],
      ]),
    ).toEqual([false, false, false]);
  });
});
