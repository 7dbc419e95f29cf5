import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { choosePostgres, LOCAL_POSTGRES_URL, postgresAnswers } from './support/global-setup';

const run = promisify(execFile);
const script = new URL('../../../scripts/test-engines.mjs', import.meta.url).pathname;

/** Runs scripts/test-engines.mjs on a summary of our own; exit code and output. */
async function engines(summary: object, args: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'pra-engines-'));
  const file = join(dir, 'summary.json');
  writeFileSync(file, JSON.stringify(summary));
  try {
    const { stdout } = await run(process.execPath, [script, ...args], {
      env: { ...process.env, PRA_TEST_ENGINES_SUMMARY: file },
    });
    return { code: 0, output: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const localPostgresAnswers = await postgresAnswers(LOCAL_POSTGRES_URL);

describe('choosing the PostgreSQL half of the test suite', () => {
  it('keeps a TEST_DATABASE_URL that is set', async () => {
    const env = { TEST_DATABASE_URL: 'postgres://elsewhere/db' };
    expect(await choosePostgres(env, 'postgres://postgres@127.0.0.1:1/postgres')).toBe('TEST_DATABASE_URL');
    expect(env.TEST_DATABASE_URL).toBe('postgres://elsewhere/db');
  });

  it('says it did not run when nothing answers, and sets nothing', async () => {
    const env: NodeJS.ProcessEnv = {};
    const words = await choosePostgres(env, 'postgres://postgres@127.0.0.1:1/postgres');
    expect(words).toMatch(/^not run/);
    expect(env.TEST_DATABASE_URL).toBeUndefined();
  });

  it.runIf(localPostgresAnswers)(
    'uses the local PostgreSQL when it answers and TEST_DATABASE_URL is unset',
    async () => {
      const env: NodeJS.ProcessEnv = {};
      expect(await choosePostgres(env)).toMatch(/local PostgreSQL/);
      expect(env.TEST_DATABASE_URL).toBe(LOCAL_POSTGRES_URL);
    },
  );
});

describe('scripts/test-engines.mjs', () => {
  const both = { ran: ['pglite', 'postgres'], postgres: 'TEST_DATABASE_URL' };
  const pgliteOnly = { ran: ['pglite'], postgres: 'not run: TEST_DATABASE_URL unset' };

  it('prints the engines the tests ran on', async () => {
    const { code, output } = await engines(both);
    expect(code).toBe(0);
    expect(output).toContain('Integration tests ran on: pglite, postgres');
  });

  it('fails when a required engine did not run (CI: the PostgreSQL half)', async () => {
    const { code, output } = await engines(pgliteOnly, ['--require=pglite,postgres']);
    expect(code).toBe(1);
    expect(output).toContain('required but not run: postgres');
    expect((await engines(both, ['--require=pglite,postgres'])).code).toBe(0);
  });

  it('fails when there is no summary at all', async () => {
    const { code } = await run(process.execPath, [script], {
      env: { ...process.env, PRA_TEST_ENGINES_SUMMARY: '/nonexistent/summary.json' },
    }).then(
      () => ({ code: 0 }),
      (e: { code: number }) => ({ code: e.code }),
    );
    expect(code).toBe(1);
  });
});
