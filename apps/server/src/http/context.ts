import type { Config } from '../config';
import type { Db, DbKind } from '../platform/db';
import type { SessionSettings } from './session';

/** What every route and use case may reach: settings and outside parts, built once at boot. */
export interface AppContext {
  config: Config;
  db: Db;
  dbKind: DbKind;
  session: SessionSettings;
  /** Answers whether mail can currently be delivered, in words for the service check. */
  mailStatus(): Promise<{ ok: boolean; text: string }>;
}
