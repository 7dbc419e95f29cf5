import type { Profile, SAML } from '@node-saml/node-saml';
import type { AppContext } from '../../platform/app-context';
import * as sessions from '../../store/sessions';
import type { Session } from '../../http/session';
import { recordAudit } from '../../identity/audit';
import type { Account } from '../../platform/db-schema';

interface SamlSessionData {
  nameID?: string;
  nameIDFormat?: string;
  sessionIndex?: string | null;
}

/**
 * Ends the portal session and, for an IdP with single logout, returns the URL of its logout.
 * The built-in IdP keeps no session of its own, so there is nothing more to end there.
 */
export async function endSession(
  ctx: AppContext,
  sp: SAML,
  session: Session | null,
  account: Account | null,
  clientAddress: string,
): Promise<string | undefined> {
  if (!session) return undefined;
  await ctx.db.transaction().execute(async (tx) => {
    await sessions.revoke(tx, session.idHash);
    if (account) {
      await recordAudit(tx, {
        action: 'signout',
        outcome: 'success',
        actor: { id: account.id, username: account.username },
        target: { id: account.id, username: account.username },
        clientAddress,
      });
    }
  });
  const saml = session.data.saml as SamlSessionData | undefined;
  if (!account || !ctx.idp.logoutUrl || !saml?.nameID) return undefined;
  const profile = {
    issuer: ctx.idp.entityId,
    nameID: saml.nameID,
    nameIDFormat: saml.nameIDFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    ...(saml.sessionIndex ? { sessionIndex: saml.sessionIndex } : {}),
  } as Profile;
  return sp.getLogoutUrlAsync(profile, '', {});
}
