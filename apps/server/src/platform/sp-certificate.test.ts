import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config';
import { expiryWarning, readSpKeyFiles } from './sp-certificate';

const fixture = (name: string) => fileURLToPath(new URL(`../../test/fixtures/${name}`, import.meta.url));
const spKey = fixture('sp.key');
const spCert = fixture('sp.crt');
const spExpiry = new Date(new X509Certificate(readFileSync(spCert)).validTo);
const today = new Date(spExpiry.getTime() - 365 * 24 * 3600_000);

/** The refusal readSpKeyFiles gives (the test fails if it gives none, or another kind of error). */
function refusal(keyFile: string, certFile: string, now = today): string {
  try {
    readSpKeyFiles(keyFile, certFile, now);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('the SP key pair from SAML_SP_KEY_FILE and SAML_SP_CERT_FILE', () => {
  let dir: string;
  const file = (name: string, text: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pra-sp-keys-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a matching, valid 2048-bit pair', () => {
    const pair = readSpKeyFiles(spKey, spCert, today);
    expect(pair.privateKeyPem).toContain('PRIVATE KEY');
    expect(pair.certPem).toContain('BEGIN CERTIFICATE');
  });

  it('refuses a key and a certificate that do not match', () => {
    expect(refusal(spKey, fixture('idp.crt'))).toBe(
      `SAML_SP_KEY_FILE and SAML_SP_CERT_FILE do not match: the key in ${spKey} is not the one ${fixture('idp.crt')} certifies`,
    );
  });

  it('refuses an expired certificate, and one not valid yet', () => {
    const after = new Date(spExpiry.getTime() + 1000);
    expect(refusal(spKey, spCert, after)).toBe(
      `SAML_SP_CERT_FILE: the certificate in ${spCert} expired on ${spExpiry.toISOString()}: make a new key pair and give the IdP the new certificate`,
    );
    expect(refusal(spKey, spCert, new Date('2000-01-01'))).toMatch(
      /^SAML_SP_CERT_FILE: the certificate in .* is not valid before /,
    );
  });

  it('refuses an RSA key under 2048 bits, and a key that is not RSA', async () => {
    const small = await selfsigned.generate([{ name: 'commonName', value: 'small' }], {
      keySize: 1024,
      algorithm: 'sha256',
    });
    const key = file('small.key', small.private);
    const cert = file('small.crt', small.cert);
    expect(refusal(key, cert, new Date())).toBe(
      `SAML_SP_CERT_FILE: ${cert} certifies a 1024-bit RSA key; the SP needs an RSA key of at least 2048 bits`,
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const ecKey = file('ec.key', ec.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(refusal(ecKey, spCert)).toBe(
      `SAML_SP_KEY_FILE: ${ecKey} is an ec key; the SP signs with RSA-SHA256 and needs an RSA key of at least 2048 bits`,
    );
  });

  it('refuses files that are not PEM, or hold the wrong thing', () => {
    const der = new X509Certificate(readFileSync(spCert)).raw;
    const derCert = file('sp.der', der);
    expect(refusal(spKey, derCert)).toBe(
      `SAML_SP_CERT_FILE: ${derCert} is not a PEM certificate (no "-----BEGIN CERTIFICATE-----" line)`,
    );
    expect(refusal(spCert, spCert)).toBe(
      `SAML_SP_KEY_FILE: ${spCert} is not a PEM private key (it holds a CERTIFICATE)`,
    );
    expect(refusal(spKey, spKey)).toBe(
      `SAML_SP_CERT_FILE: ${spKey} is not a PEM certificate (it holds a PRIVATE KEY)`,
    );
    const garbage = file(
      'garbage.key',
      '-----BEGIN PRIVATE KEY-----\nnot base64 at all\n-----END PRIVATE KEY-----\n',
    );
    expect(refusal(garbage, spCert)).toMatch(
      /^SAML_SP_KEY_FILE: .*garbage\.key is not a readable PEM private key/,
    );
    const encrypted = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
      cipher: 'aes-256-cbc',
      passphrase: 'secret',
    });
    const encryptedKey = file('encrypted.key', encrypted);
    expect(refusal(encryptedKey, spCert)).toBe(
      `SAML_SP_KEY_FILE: ${encryptedKey} is encrypted with a passphrase; the portal needs the key unencrypted (keep the file readable by the portal's user only)`,
    );
  });

  it('refuses a missing or unreadable file with the variable and the path, not a bare ENOENT', () => {
    const missing = join(dir, 'nowhere', 'sp.key');
    expect(refusal(missing, spCert)).toBe(`SAML_SP_KEY_FILE: cannot read ${missing}: no such file`);
    expect(refusal(spKey, join(dir, 'sp.crt'))).toBe(
      `SAML_SP_CERT_FILE: cannot read ${join(dir, 'sp.crt')}: no such file`,
    );
    expect(refusal(spKey, dir)).toBe(`SAML_SP_CERT_FILE: cannot read ${dir}: it is a folder, not a file`);
  });

  it('warns within 30 days of the end, not before', () => {
    const day = 24 * 3600_000;
    expect(expiryWarning('SAML_SP_CERT_FILE', spExpiry, new Date(spExpiry.getTime() - 31 * day))).toBeNull();
    expect(expiryWarning('SAML_SP_CERT_FILE', spExpiry, new Date(spExpiry.getTime() - 10 * day - 1000))).toBe(
      `SAML_SP_CERT_FILE: the SAML SP certificate expires on ${spExpiry.toISOString()} (in 10 days): make a new key pair and give the IdP the new certificate (the portal's metadata carries it) before then`,
    );
  });
});
