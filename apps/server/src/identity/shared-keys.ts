import type { Db } from '../platform/db';
import type { Encryptor } from '../platform/encryption';
import { generateKeyPair, readKeyPairFromDataDir, type KeyPair } from '../platform/keys';
import { findSigningKey, insertSigningKeyOnce } from '../store/signing-keys';

/**
 * The signing key pair `name`, the same for every instance on the database: the first instance to
 * need it stores it (private key encrypted with DATA_ENCRYPTION_KEY); instances starting at the
 * same moment race on `on conflict do nothing` and all read back the one that won. A pair an
 * earlier version generated into DATA_DIR becomes the stored one, so the trust set up with it holds.
 */
export async function sharedKeyPair(
  db: Db,
  encryptor: Encryptor,
  options: { name: string; commonName: string; dataDir: string },
): Promise<KeyPair> {
  let row = await findSigningKey(db, options.name);
  if (!row) {
    const pair =
      readKeyPairFromDataDir(options.dataDir, options.name) ?? (await generateKeyPair(options.commonName));
    await insertSigningKeyOnce(db, {
      name: options.name,
      privateKeyEncrypted: encryptor.encrypt(pair.privateKeyPem),
      certPem: pair.certPem,
    });
    row = await findSigningKey(db, options.name);
    if (!row) throw new Error(`the signing key ${options.name} was not stored`);
  }
  try {
    return { privateKeyPem: encryptor.decrypt(row.private_key_encrypted), certPem: row.cert_pem };
  } catch (error) {
    throw new Error(
      `The signing key ${options.name} in the database cannot be decrypted: every instance needs the DATA_ENCRYPTION_KEY it was stored with`,
      { cause: error },
    );
  }
}
