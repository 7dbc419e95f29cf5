import { describe, expect, it } from 'vitest';
import { lastAnswer } from './last-answer';

/** A probe the test answers by hand, counting how often it was asked. */
function manualProbe() {
  const pending: Array<(value: string) => void> = [];
  return {
    asked: () => pending.length,
    probe: () => new Promise<string>((resolve) => pending.push(resolve)),
    answer: (value: string) => pending.at(-1)!(value),
  };
}

/** Whether `promise` settles before a 0 ms timer: no waiting on anything outside. */
async function atOnce<T>(promise: Promise<T>): Promise<T | 'waited'> {
  return Promise.race([promise, new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 0))]);
}

describe('lastAnswer', () => {
  const setup = () => {
    let clock = 0;
    const probe = manualProbe();
    const health = lastAnswer({
      probe: probe.probe,
      freshMs: 5_000,
      trustMs: 20_000,
      untrusted: (ageMs) => `untrusted after ${ageMs} ms`,
      now: () => clock,
    });
    /** The first call, answered 'up' at 0 ms. */
    const answeredUp = async () => {
      const first = health.get();
      probe.answer('up');
      await first;
    };
    return { probe, health, answeredUp, advance: (ms: number) => (clock += ms) };
  };

  it('makes the first call wait for the first probe, and every call at once share it', async () => {
    const { probe, health } = setup();
    const first = health.get();
    const second = health.get();
    expect(probe.asked()).toBe(1);
    expect(await atOnce(first)).toBe('waited');
    probe.answer('up');
    expect(await first).toBe('up');
    expect(await second).toBe('up');
  });

  it('keeps an answer for freshMs without asking again', async () => {
    const { probe, health, answeredUp, advance } = setup();
    await answeredUp();
    advance(4_999);
    expect(await atOnce(health.get())).toBe('up');
    expect(probe.asked()).toBe(1);
  });

  it('past freshMs answers from the last answer at once while one new probe runs, then from the new one', async () => {
    const { probe, health, answeredUp, advance } = setup();
    await answeredUp();
    advance(5_000);
    expect(await atOnce(health.get())).toBe('up');
    expect(await atOnce(health.get())).toBe('up');
    expect(probe.asked()).toBe(2);
    probe.answer('down');
    await Promise.resolve();
    await Promise.resolve();
    expect(await atOnce(health.get())).toBe('down');
    expect(probe.asked()).toBe(2);
  });

  it('stops believing an answer older than trustMs, and says how old', async () => {
    const { probe, health, answeredUp, advance } = setup();
    await answeredUp();
    advance(19_999);
    expect(await atOnce(health.get())).toBe('up');
    advance(1);
    expect(await atOnce(health.get())).toBe('untrusted after 20000 ms');
    expect(probe.asked()).toBe(2); // still the one probe, hanging
  });

  it('survives a probe that rejects behind the last answer, and asks again', async () => {
    let clock = 0;
    let calls = 0;
    const health = lastAnswer({
      probe: () => (++calls === 1 ? Promise.resolve('up') : Promise.reject(new Error('bug'))),
      freshMs: 5_000,
      trustMs: 20_000,
      untrusted: () => 'untrusted',
      now: () => clock,
    });
    expect(await health.get()).toBe('up');
    clock += 5_000;
    expect(await health.get()).toBe('up');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await health.get()).toBe('up');
    expect(calls).toBe(3);
  });
});
