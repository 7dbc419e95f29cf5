import { loadConfigFromEnvironment } from './config';
import { purgeAuditEvents } from './store/audit';
import { truncateAllButAudit } from './store/reset';
import { insertDefaultRows } from './store/settings';
import { announceDemoAccounts, seedDemoData } from './identity/demo-data';
import { openRuntime } from './runtime';

/**
 * `npm run seed:demo`: empties the standalone database and creates the demo data again.
 * Refuses in production mode, where it would wipe real accounts.
 */
async function main(): Promise<void> {
  const config = loadConfigFromEnvironment();
  if (!config.isStandalone) {
    process.stderr.write('seed:demo resets all data and runs only in standalone mode.\n');
    process.exit(1);
  }
  const runtime = await openRuntime(config, {
    info: () => {},
    warn: (_fields, message) => process.stderr.write(`${message}\n`),
  });
  await truncateAllButAudit(runtime.ctx.db);
  // The audit trail refuses TRUNCATE; the purge function is its one way out.
  await purgeAuditEvents(runtime.ctx.db, new Date('9999-12-31T00:00:00Z'));
  await insertDefaultRows(runtime.ctx.db);
  const seed = await seedDemoData(runtime.ctx.db, config.DEMO_PASSWORD);
  announceDemoAccounts(config, seed.password);
  await runtime.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`seed:demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
