import type { Tx } from '../../platform/db';

/** Takes the given and family name an external identity provider sent at sign-in. */
export async function updateAccountNames(tx: Tx, accountId: string, givenName: string, familyName: string) {
  await tx
    .updateTable('accounts')
    .set({ given_name: givenName, family_name: familyName })
    .where('id', '=', accountId)
    .execute();
}
