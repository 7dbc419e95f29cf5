import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface KeyPair {
  privateKeyPem: string;
  certPem: string;
}

/** Reads a key and certificate from PEM files. */
export function readKeyPair(keyFile: string, certFile: string): KeyPair {
  return { privateKeyPem: readFileSync(keyFile, 'utf8'), certPem: readFileSync(certFile, 'utf8') };
}

/**
 * A new self-signed signing key pair (RSA 2048, sha256, ten years). selfsigned (and the forge
 * library under it) is loaded only here: only a first start needs it, and it is slow to load.
 */
export async function generateKeyPair(commonName: string): Promise<KeyPair> {
  // Its CommonJS exports, as Node and the bundled server's chunk both present them: `default`.
  const { generate } = (await import('selfsigned')).default;
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
  return { privateKeyPem: pems.private, certPem: pems.cert };
}

/** The pair earlier versions generated into DATA_DIR (`<name>.key`, `<name>.crt`), if there is one. */
export function readKeyPairFromDataDir(dataDir: string, name: string): KeyPair | undefined {
  const keyFile = join(dataDir, `${name}.key`);
  const certFile = join(dataDir, `${name}.crt`);
  return existsSync(keyFile) && existsSync(certFile) ? readKeyPair(keyFile, certFile) : undefined;
}

/** The certificate body without PEM armour or line breaks, as SAML metadata carries it. */
export function certBody(certPem: string): string {
  return certPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}
