import { userInfo } from 'node:os';

/** Who makes an administrative change, as the audit trail names them. */
export interface Actor {
  id: string | null;
  username: string;
  clientAddress: string;
}

/** The operators' CLI: no account, named after the OS user who ran it. */
export function cliActor(): Actor {
  let user = '';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (some containers): plain 'cli'.
  }
  return { id: null, username: user ? `cli:${user}`.slice(0, 64) : 'cli', clientAddress: 'cli' };
}
