// vitest globalSetup of the server tests: runs once, before any worker starts.
// - Without TEST_DATABASE_URL it probes the local PostgreSQL (127.0.0.1:5432, user postgres) and,
//   when it answers, sets TEST_DATABASE_URL for the workers, so `npm test` covers both engines by
//   itself on a developer's machine and in CI.
// - At the end it writes which engines the integration tests actually ran on (database-engines.ts).
// - It builds the server (dist/) once for the files that start it as a process.
// - It migrates one database of each engine, which every test database then starts as a copy of
//   (databases.ts): the workers skip PGlite's initdb and the migrations.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DbKind } from '../../src/platform/db';
import {
  createPostgresTemplate,
  dropPostgresDatabase,
  PGLITE_TEMPLATE_VARIABLE,
  POSTGRES_TEMPLATE_VARIABLE,
  writePgliteTemplate,
} from './databases';
import { ENGINES_DIR_VARIABLE, ENGINES_SUMMARY_FILE, type EnginesSummary } from './database-engines';
import { buildServer, SERVER_BUILT_VARIABLE } from './server-process';

export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** True when a PostgreSQL server accepts a connection at `url` within a second. */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Decides where the PostgreSQL half runs; returns the summary's words for it. */
export async function choosePostgres(env: NodeJS.ProcessEnv, localUrl = LOCAL_POSTGRES_URL): Promise<string> {
  if (env.TEST_DATABASE_URL) return 'TEST_DATABASE_URL';
  if (await postgresAnswers(localUrl)) {
    env.TEST_DATABASE_URL = localUrl;
    return 'the local PostgreSQL at 127.0.0.1:5432 (TEST_DATABASE_URL was unset)';
  }
  return 'not run: TEST_DATABASE_URL unset and no PostgreSQL answered at 127.0.0.1:5432';
}

export default async function setup() {
  // The files that start the real server run in parallel workers: one build for all of them.
  buildServer();
  process.env[SERVER_BUILT_VARIABLE] = '1';
  // PRA_TEST_ENGINES_SUMMARY: another file (scripts/test-engines.mjs reads the same variable), for a
  // second run beside the first (.ci/run's oldest Node.js line).
  const summaryPath = process.env.PRA_TEST_ENGINES_SUMMARY ?? fileURLToPath(ENGINES_SUMMARY_FILE);
  rmSync(summaryPath, { force: true });
  const postgres = await choosePostgres(process.env);
  const markers = mkdtempSync(join(tmpdir(), 'pra-test-engines-'));
  process.env[ENGINES_DIR_VARIABLE] = markers;
  const templates = mkdtempSync(join(tmpdir(), 'pra-test-templates-'));
  const pgliteTemplate = join(templates, 'pglite.tar');
  await writePgliteTemplate(pgliteTemplate);
  process.env[PGLITE_TEMPLATE_VARIABLE] = pgliteTemplate;
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgresTemplate = `pra_template_${randomBytes(6).toString('hex')}`;
  if (adminUrl) {
    await createPostgresTemplate(adminUrl, postgresTemplate);
    process.env[POSTGRES_TEMPLATE_VARIABLE] = postgresTemplate;
  }

  return async () => {
    rmSync(templates, { recursive: true, force: true });
    if (adminUrl) await dropPostgresDatabase(adminUrl, postgresTemplate);
    const ran = readdirSync(markers).filter(
      (name): name is DbKind => name === 'pglite' || name === 'postgres',
    );
    rmSync(markers, { recursive: true, force: true });
    const summary: EnginesSummary = { ran: ran.sort(), postgres, finishedAt: new Date().toISOString() };
    mkdirSync(dirname(summaryPath), { recursive: true });
    writeFileSync(summaryPath, `${JSON.stringify(summary, null, 2)}\n`);
  };
}
