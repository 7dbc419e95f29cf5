import { ConfigError } from '../config';
import type { AppContext } from '../platform/app-context';
import type { Db } from '../platform/db';
import {
  isMetadataUrl,
  parseIdpMetadata,
  readIdpMetadata,
  type IdpDescription,
  type LoadedMetadata,
} from '../platform/idp-metadata';
import * as stored from '../store/idp-metadata';

/** What the start and the refresh say; never the metadata itself. */
export interface MetadataLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * The IdP to start with. Metadata read from IDP_METADATA's URL is kept as the last good copy;
 * when the URL cannot be read or gives unusable metadata, the start goes on with the last good
 * copy (said in a warning) and only a portal that never had one refuses to start.
 */
export async function startupIdp(
  db: Db,
  source: string,
  entityId: string | undefined,
  read: LoadedMetadata | ConfigError,
  now: Date,
  log: MetadataLog,
): Promise<IdpDescription> {
  if (!(read instanceof ConfigError)) {
    if (isMetadataUrl(source)) await stored.saveLastGood(db, source, read.xml, now);
    return read.idp;
  }
  const last = isMetadataUrl(source) ? await stored.readLastGood(db, source) : undefined;
  if (!last) throw read;
  const idp = parseIdpMetadata(last.xml, `the last good copy of ${source}`, entityId);
  log.warn(
    { fetchedAt: last.fetchedAt.toISOString() },
    `${read.message}; starting with the last good copy, fetched at ${last.fetchedAt.toISOString()} (refreshed again every few minutes)`,
  );
  return idp;
}

/** Whether two descriptions trust the same IdP at the same addresses with the same certificates. */
function sameIdp(a: IdpDescription, b: IdpDescription): boolean {
  return (
    a.entityId === b.entityId &&
    a.ssoUrl === b.ssoUrl &&
    a.logoutUrl === b.logoutUrl &&
    a.signingCerts.join() === b.signingCerts.join()
  );
}

/**
 * Fetches IDP_METADATA's URL once more. Good metadata replaces the IdP's description the running
 * portal uses (in place: every sign-in and logout reads ctx.idp) and becomes the last good copy;
 * a failure keeps both as they are. Returns whether the fetch gave usable metadata.
 */
export async function refreshIdpMetadata(ctx: AppContext, log: MetadataLog): Promise<boolean> {
  const source = ctx.config.IDP_METADATA ?? '';
  let read: LoadedMetadata;
  try {
    read = await readIdpMetadata(source, { entityId: ctx.config.IDP_ENTITY_ID });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log.warn({}, `${error.message}; keeping the IdP metadata in use`);
    return false;
  }
  await stored.saveLastGood(ctx.db, source, read.xml, ctx.clock.now());
  if (!sameIdp(ctx.idp, read.idp)) {
    Object.assign(ctx.idp, { ...read.idp, logoutUrl: read.idp.logoutUrl });
    log.info(
      { entityId: read.idp.entityId, signingCertificates: read.idp.signingCerts.length },
      'IDP_METADATA changed: the new metadata is in use',
    );
  }
  return true;
}

/**
 * Refreshes the external IdP's metadata every IDP_METADATA_REFRESH_MINUTES when IDP_METADATA is a
 * URL (a file is read at start only); nothing to do otherwise.
 */
export function startIdpMetadataRefresh(ctx: AppContext, log: MetadataLog): { stop(): Promise<void> } {
  const source = ctx.config.IDP_METADATA ?? '';
  if (ctx.config.idp !== 'external' || !isMetadataUrl(source)) return { stop: async () => {} };
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = refreshIdpMetadata(ctx, log).catch((error: unknown) =>
      log.warn({ err: error }, 'IDP_METADATA refresh failed; keeping the IdP metadata in use'),
    );
  }, ctx.config.IDP_METADATA_REFRESH_MINUTES * 60_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
