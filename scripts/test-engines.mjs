// Prints which database engines the server's integration tests ran on in the last `vitest run`
// (the summary apps/server/test/support/global-setup.ts writes). With --require=pglite,postgres
// it fails when one of them did not run: CI uses that, so a run that silently skipped the
// PostgreSQL half is a failed run. PRA_TEST_ENGINES_SUMMARY names another summary file (tests).
import { readFileSync } from 'node:fs';

const file =
  process.env.PRA_TEST_ENGINES_SUMMARY ??
  new URL('../test-results/database-engines.json', import.meta.url).pathname;
const required = (process.argv.find((arg) => arg.startsWith('--require='))?.slice('--require='.length) ?? '')
  .split(',')
  .filter(Boolean);

let summary;
try {
  summary = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.error(`test engines: no summary at ${file}; did the server tests run?`);
  process.exit(1);
}
const ran = Array.isArray(summary.ran) ? summary.ran : [];
console.log(`Integration tests ran on: ${ran.length ? ran.join(', ') : 'no database'}`);
console.log(`PostgreSQL: ${summary.postgres}`);
const missing = required.filter((engine) => !ran.includes(engine));
if (missing.length > 0) {
  console.error(`test engines: required but not run: ${missing.join(', ')}`);
  process.exit(1);
}
