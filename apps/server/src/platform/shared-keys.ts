import type { Db } from './db';
import type { Encryptor } from './encryption';
import { generateKeyPair, readKeyPairFromDataDir, type KeyPair } from './keys';

async function storedKey(db: Db, name: string) {
  return db
    .selectFrom('signing_keys')
    .select(['private_key_encrypted', 'cert_pem'])
    .where('name', '=', name)
    .executeTakeFirst();
}

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
  let row = await storedKey(db, options.name);
  if (!row) {
    const pair =
      readKeyPairFromDataDir(options.dataDir, options.name) ?? (await generateKeyPair(options.commonName));
    await db
      .insertInto('signing_keys')
      .values({
        name: options.name,
        private_key_encrypted: encryptor.encrypt(pair.privateKeyPem),
        cert_pem: pair.certPem,
      })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    row = await storedKey(db, options.name);
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
