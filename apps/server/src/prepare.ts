import pino, { type LoggerOptions } from 'pino';
import { loggerOptions } from './platform/logger';
import { openPortalData, readConfig } from './startup';

/**
 * A first start's work without HTTP: creates and migrates the database, the signing keys and the
 * demo data, then exits. `npm start` runs it beside the web build when the build is out of date
 * (a fresh clone), so that creating the embedded database (several seconds) overlaps the build;
 * the server started afterwards finds everything in place.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const runtime = await openPortalData(config, pino(loggerOptions(config.LOG_LEVEL) as LoggerOptions));
  await runtime.close();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `PRA Portal failed to prepare its data: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  if (error instanceof Error && error.cause) process.stderr.write(`  cause: ${String(error.cause)}\n`);
  process.exit(1);
});
