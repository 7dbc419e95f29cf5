import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { ConfigError } from '../config';
import type { KeyPair } from './keys';
import { readSettingFile } from './setting-files';

/** The smallest RSA key the SP signs with; below it signatures can be forged. */
export const MIN_RSA_BITS = 2048;
/** A certificate this close to its end is warned about at every start. */
export const EXPIRY_WARNING_DAYS = 30;

const DAY_MS = 24 * 3600_000;

/** The end of a PEM certificate's validity. */
export function certificateExpiry(certPem: string): Date {
  return new Date(new X509Certificate(certPem).validTo);
}

/** The start-up warning for a certificate that expires within EXPIRY_WARNING_DAYS; null otherwise. */
export function expiryWarning(variable: string, expiresAt: Date, now: Date): string | null {
  const days = Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS);
  if (days >= EXPIRY_WARNING_DAYS) return null;
  return `${variable}: the SAML SP certificate expires on ${expiresAt.toISOString()} (in ${days} days): make a new key pair and give the IdP the new certificate (the portal's metadata carries it) before then`;
}

function privateKeyOf(path: string, pem: string): KeyObject {
  const variable = 'SAML_SP_KEY_FILE';
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
    const found = /-----BEGIN ([A-Z ]+)-----/.exec(pem)?.[1];
    throw new ConfigError(
      `${variable}: ${path} is not a PEM private key (${found ? `it holds a ${found}` : 'no "-----BEGIN … PRIVATE KEY-----" line'})`,
    );
  }
  if (/ENCRYPTED PRIVATE KEY|Proc-Type: 4,ENCRYPTED/.test(pem)) {
    throw new ConfigError(
      `${variable}: ${path} is encrypted with a passphrase; the portal needs the key unencrypted (keep the file readable by the portal's user only)`,
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new ConfigError(
      `${variable}: ${path} is not a readable PEM private key (${(error as Error).message})`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new ConfigError(
      `${variable}: ${path} is an ${key.asymmetricKeyType ?? 'unknown'} key; the SP signs with RSA-SHA256 and needs an RSA key of at least ${MIN_RSA_BITS} bits`,
    );
  }
  return key;
}

function certificateOf(path: string, pem: string): X509Certificate {
  const variable = 'SAML_SP_CERT_FILE';
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    const found = /-----BEGIN ([A-Z ]+)-----/.exec(pem)?.[1];
    throw new ConfigError(
      `${variable}: ${path} is not a PEM certificate (${found ? `it holds a ${found}` : 'no "-----BEGIN CERTIFICATE-----" line'})`,
    );
  }
  try {
    return new X509Certificate(pem);
  } catch (error) {
    throw new ConfigError(
      `${variable}: ${path} is not a readable PEM certificate (${(error as Error).message})`,
    );
  }
}

/**
 * The SP's key pair from SAML_SP_KEY_FILE and SAML_SP_CERT_FILE, checked before anything starts:
 * both readable PEM, an RSA key of at least 2048 bits, the certificate that key's, and valid
 * `now`. Any other pair would start and then fail every sign-in at the IdP.
 */
export function readSpKeyFiles(keyFile: string, certFile: string, now: Date): KeyPair {
  const privateKeyPem = readSettingFile('SAML_SP_KEY_FILE', keyFile);
  const certPem = readSettingFile('SAML_SP_CERT_FILE', certFile);
  const key = privateKeyOf(keyFile, privateKeyPem);
  const cert = certificateOf(certFile, certPem);
  const publicKey = cert.publicKey;
  const bits = publicKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (publicKey.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_BITS) {
    throw new ConfigError(
      `SAML_SP_CERT_FILE: ${certFile} certifies ${publicKey.asymmetricKeyType === 'rsa' ? `a ${bits}-bit RSA key` : `an ${publicKey.asymmetricKeyType ?? 'unknown'} key`}; the SP needs an RSA key of at least ${MIN_RSA_BITS} bits`,
    );
  }
  if (!cert.checkPrivateKey(key)) {
    throw new ConfigError(
      `SAML_SP_KEY_FILE and SAML_SP_CERT_FILE do not match: the key in ${keyFile} is not the one ${certFile} certifies`,
    );
  }
  const validFrom = new Date(cert.validFrom);
  const validTo = new Date(cert.validTo);
  if (validTo.getTime() <= now.getTime()) {
    throw new ConfigError(
      `SAML_SP_CERT_FILE: the certificate in ${certFile} expired on ${validTo.toISOString()}: make a new key pair and give the IdP the new certificate`,
    );
  }
  if (validFrom.getTime() > now.getTime()) {
    throw new ConfigError(
      `SAML_SP_CERT_FILE: the certificate in ${certFile} is not valid before ${validFrom.toISOString()} (is this machine's clock right?)`,
    );
  }
  return { privateKeyPem, certPem };
}
