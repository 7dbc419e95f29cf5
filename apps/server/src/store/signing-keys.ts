import type { Db } from '../platform/db';

// The owner of `signing_keys`: the key pairs every instance shares, private keys encrypted
// (identity/shared-keys.ts makes, stores and reads them).

export async function findSigningKey(db: Db, name: string) {
  return db
    .selectFrom('signing_keys')
    .select(['private_key_encrypted', 'cert_pem'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/** Stores the key pair unless one of that name is stored already (the first instance wins). */
export async function insertSigningKeyOnce(
  db: Db,
  key: { name: string; privateKeyEncrypted: string; certPem: string },
): Promise<void> {
  await db
    .insertInto('signing_keys')
    .values({ name: key.name, private_key_encrypted: key.privateKeyEncrypted, cert_pem: key.certPem })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}
