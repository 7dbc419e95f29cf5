import { ConfigError, demoDataNotice, loadConfigFromEnvironment, type Config } from './config';
import { announceDemoAccounts, demoAccountsFile, seedDemoData } from './identity/demo-data';
import type { StartupLog } from './platform/db-startup';
import { openRuntime, type Runtime } from './runtime';

/** The settings from the environment; a bad one ends the process with its message. */
export function readConfig(): Config {
  try {
    return loadConfigFromEnvironment();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Everything a start needs before HTTP: the database opened (created on a first start) and
 * migrated, the signing keys, and the demo data when it is on (created once; later starts find it).
 */
export async function openPortalData(config: Config, log: StartupLog): Promise<Runtime> {
  const runtime = await openRuntime(config, log);
  const notice = demoDataNotice(config);
  if (notice) log.warn({}, notice);
  if (config.demoData) {
    const seed = await seedDemoData(runtime.ctx.db, config.DEMO_PASSWORD);
    if (seed.created) announceDemoAccounts(config, seed.password);
    else
      log.info(
        { file: demoAccountsFile(config.DATA_DIR) },
        `demo data already present; sign-in details are in ${demoAccountsFile(config.DATA_DIR)}`,
      );
  }
  return runtime;
}
