import { describe, expect, it } from 'vitest';
import { generateCode, hashCode, normalizeCode } from './codes';

describe('codes', () => {
  it('are four groups of four unambiguous characters (80 bits)', () => {
    const codes = new Set(Array.from({ length: 200 }, generateCode));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
  });
  it('ignore case and separators', () => {
    expect(normalizeCode(' abcd-efgh jkmn-pqrs ')).toBe('ABCDEFGHJKMNPQRS');
    expect(hashCode('pepper', 'abcd efgh-jkmn pqrs')).toBe(hashCode('pepper', 'ABCD-EFGH-JKMN-PQRS'));
  });
  it('are hashed with the server secret, never stored as typed', () => {
    const hash = hashCode('pepper', 'ABCD-EFGH-JKMN-PQRS');
    expect(hash).not.toContain('ABCD');
    expect(hash).not.toBe(hashCode('other pepper', 'ABCD-EFGH-JKMN-PQRS'));
  });
});
