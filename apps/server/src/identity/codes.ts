import { createHmac, randomInt } from 'node:crypto';
import type { Tx } from '../platform/db';
import { replaceUnused } from '../store/codes';

/** 32 letters and digits that cannot be mistaken for one another (no I, O, 0, 1). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 16 characters of a 32-letter alphabet: 80 bits of randomness. */
const CODE_LENGTH = 16;

/** A new random code, shown to people as four groups of four (ABCD-EFGH-JKMN-PQRS). */
export function generateCode(): string {
  let raw = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) raw += ALPHABET[randomInt(ALPHABET.length)];
  return raw.match(/.{4}/g)!.join('-');
}

/** What people type, made comparable: case and separators (spaces, dashes) do not matter. */
export function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * Only this keyed hash is stored: a database leak alone cannot be turned back into codes, nor
 * can codes be checked offline without the server's secret.
 */
export function hashCode(pepper: string, code: string): string {
  return createHmac('sha256', pepper)
    .update(`code:${normalizeCode(code)}`)
    .digest('base64url');
}

/**
 * Creates a code for the account and makes its earlier unused codes of the same kind expire,
 * so only the newest mail works. Returns the raw code, to be mailed and then forgotten.
 */
export async function createCode(
  tx: Tx,
  options: { pepper: string; accountId: string; kind: 'activation' | 'reset'; ttlSeconds: number },
): Promise<string> {
  const code = generateCode();
  await replaceUnused(tx, {
    accountId: options.accountId,
    kind: options.kind,
    codeHash: hashCode(options.pepper, code),
    ttlSeconds: options.ttlSeconds,
  });
  return code;
}
