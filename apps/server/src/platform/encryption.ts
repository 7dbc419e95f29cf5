import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption (AES-256-GCM) for secrets the portal must read back, such as TOTP
 * seeds. The stored form is `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export interface Encryptor {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

export function createEncryptor(key: string): Encryptor {
  const keyBytes = createHash('sha256').update(key).digest();
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyBytes, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(stored) {
      const [version, iv, tag, data] = stored.split('.');
      if (version !== 'v1' || !iv || !tag || !data) throw new Error('unknown encrypted value format');
      const decipher = createDecipheriv('aes-256-gcm', keyBytes, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
