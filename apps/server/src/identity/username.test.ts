import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds } from '../../test/support/databases';
import type { DatabaseHandle } from '../platform/db';
import {
  firstFreeUsername,
  generateUsername,
  usernameBase,
  usernameCandidate,
  usernameStem,
} from './username';

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
  it('takes the first free candidate', () => {
    const taken = new Set(['jdoe', 'jdoe1', 'jdoe2']);
    expect(firstFreeUsername('jdoe', taken)).toBe('jdoe3');
    expect(firstFreeUsername('msmith', taken)).toBe('msmith');
  });
});

describe('usernameStem', () => {
  // Long names differing only after the stem share their shortened candidates.
  const first = usernameBase('Alexandra', 'Vandenberghe-Wolfeschlegelstein'); // avandenberghewolfesc
  const second = usernameBase('Anna', 'Vandenberghe-Wolfest'); // avandenberghewolfest
  const other = usernameBase('Anna', 'Vandenberghe-Wolfgang'); // avandenberghewolfgan

  it('is the part of the base every candidate starts with', () => {
    expect(usernameStem('jdoe')).toBe('jdoe');
    expect(usernameStem(first)).toBe('avandenberghewo');
    for (const n of [0, 1, 12, 345, 6789, 99_999]) {
      expect(usernameCandidate(first, n).startsWith(usernameStem(first))).toBe(true);
    }
  });

  it('is the same for two bases whose candidates collide, so they take the same lock', () => {
    expect(second).not.toBe(first);
    expect(usernameCandidate(second, 1)).toBe(usernameCandidate(first, 1));
    expect(usernameStem(second)).toBe(usernameStem(first));
    expect(other).not.toBe(first);
    expect(usernameCandidate(other, 12_345)).toBe(usernameCandidate(first, 12_345));
    expect(usernameStem(other)).toBe(usernameStem(first));
  });

  it('lets the second of two colliding bases skip the name the first took', () => {
    const taken = new Set([first, other]);
    const picked = firstFreeUsername(first, taken);
    expect(picked).toBe('avandenberghewolfes1');
    taken.add(picked);
    expect(firstFreeUsername(other, taken)).toBe('avandenberghewolfga1');
    expect(firstFreeUsername(second, new Set([...taken, second]))).toBe('avandenberghewolfes2');
  });
});

describe.each(testDatabaseKinds)('generateUsername on %s', (kind) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
  });
  afterAll(async () => handle?.close());

  /** Picks a username and creates the account with it, in one transaction. */
  const provision = (given: string, family: string) =>
    handle.db.transaction().execute(async (tx) => {
      const username = await generateUsername(tx, given, family);
      await tx
        .insertInto('accounts')
        .values({
          username,
          email: `${given}.${family}@example.test`,
          type: 'vendor',
          status: 'pendingActivation',
          password_hash: null,
        })
        .execute();
      return username;
    });

  it('reads the taken names of the stem at once, whatever their case', async () => {
    await handle.db
      .insertInto('accounts')
      .values(
        ['JDoe', 'jdoe1', 'jdoex'].map((username) => ({
          username,
          email: `${username}@example.test`,
          type: 'vendor' as const,
          status: 'active' as const,
          password_hash: null,
        })),
      )
      .execute();
    expect(await provision('Jane', 'Doe')).toBe('jdoe2');
  });

  it('gives two different long names sharing a stem different names at once (a real race on PostgreSQL)', async () => {
    const names: [string, string][] = [
      ['Alexandra', 'Vandenberghe-Wolfeschlegelstein'],
      ['Anna', 'Vandenberghe-Wolfest'],
    ];
    // Both bases taken, so both reach for the shortened candidate "avandenberghewolfes1".
    await handle.db
      .insertInto('accounts')
      .values(
        names.map(([given, family]) => ({
          username: usernameBase(given, family),
          email: `${given}@taken.example`,
          type: 'vendor' as const,
          status: 'active' as const,
          password_hash: null,
        })),
      )
      .execute();
    for (let round = 0; round < 3; round += 1) {
      const picked = await Promise.all(names.map(([given, family]) => provision(given, family)));
      expect(new Set(picked).size).toBe(2);
    }
  });
});
