import { describe, expect, it } from 'vitest';
import { firstFreeUsername, usernameBase, usernameCandidate } from './username';

describe('usernameBase', () => {
  it.each([
    ['Jane', 'Doe', 'jdoe'],
    ['Émile', 'Zoë-Brontë', 'ezoebronte'],
    ['jean luc', "O'Neil Smith", 'joneilsmith'],
    ['Ørjan', 'Ångström', 'oangstrom'],
    ['Łukasz', 'Weiß', 'lweiss'],
    ['Alexandra', 'Vandenberghe-Wolfeschlegelstein', 'avandenberghewolfesc'],
    ['李', '王', 'user'],
    ['', 'Doe', 'doe'],
  ])('%s %s → %s', (given, family, expected) => {
    const base = usernameBase(given, family);
    expect(base).toBe(expected);
    expect(base).toMatch(/^[a-z]{1,20}$/);
  });
});

describe('usernameCandidate and firstFreeUsername', () => {
  it('appends digits, staying within 20 characters', () => {
    expect(usernameCandidate('jdoe', 0)).toBe('jdoe');
    expect(usernameCandidate('jdoe', 1)).toBe('jdoe1');
    expect(usernameCandidate('abcdefghijklmnopqrst', 12)).toBe('abcdefghijklmnopqr12');
  });
  it('takes the first free candidate', async () => {
    const taken = new Set(['jdoe', 'jdoe1', 'jdoe2']);
    expect(await firstFreeUsername('jdoe', async (c) => taken.has(c))).toBe('jdoe3');
    expect(await firstFreeUsername('msmith', async (c) => taken.has(c))).toBe('msmith');
  });
});
