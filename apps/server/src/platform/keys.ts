import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface KeyPair {
  privateKeyPem: string;
  certPem: string;
}

/** Reads a key and certificate from PEM files. */
export function readKeyPair(keyFile: string, certFile: string): KeyPair {
  return { privateKeyPem: readFileSync(keyFile, 'utf8'), certPem: readFileSync(certFile, 'utf8') };
}

/**
 * A signing key pair kept in DATA_DIR (`<name>.key`, `<name>.crt`), made self-signed (RSA 2048,
 * sha256, ten years) on first use. Standalone mode uses these for the SP and the built-in IdP.
 */
export async function loadOrCreateKeyPair(
  dataDir: string,
  name: string,
  commonName: string,
): Promise<KeyPair> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const keyFile = join(dataDir, `${name}.key`);
  const certFile = join(dataDir, `${name}.crt`);
  if (existsSync(keyFile) && existsSync(certFile)) return readKeyPair(keyFile, certFile);
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 10 * 365 * 24 * 3600_000);
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    ],
  });
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  writeFileSync(certFile, pems.cert, { mode: 0o644 });
  return { privateKeyPem: pems.private, certPem: pems.cert };
}

/** The certificate body without PEM armour or line breaks, as SAML metadata carries it. */
export function certBody(certPem: string): string {
  return certPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}
