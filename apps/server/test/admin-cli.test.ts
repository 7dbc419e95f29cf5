import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, serverDir } from './support/server-process';

/** The built CLI (dist/admin.js) as an operator runs it, on standalone's embedded database. */
describe('node dist/admin.js', () => {
  let dataDir: string;
  beforeAll(() => {
    buildServer();
    dataDir = mkdtempSync(join(tmpdir(), 'pra-admin-cli-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  function admin(args: string[], input?: string) {
    const result = spawnSync(process.execPath, ['dist/admin.js', ...args], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), DATA_DIR: dataDir },
      input,
      encoding: 'utf8',
      // The first command on the data folder runs initdb and every migration: over a minute on a
      // CI machine busy with the browser journeys (a sync call: the test's own timeout cannot end it).
      timeout: 240_000,
    });
    return { code: result.status, out: result.stdout, err: result.stderr };
  }

  it('lists its commands, and answers --help for each with exit 0', () => {
    const none = admin([]);
    expect(none.code).toBe(2);
    expect(none.out).toContain('create-admin');
    const help = admin(['import', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: admin import <file.csv|-> [--apply]');
  });

  it('exit 2 for an unknown command, a missing argument or an unknown option', () => {
    expect(admin(['frobnicate']).code).toBe(2);
    const missing = admin(['brm-assign', 'someone']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('admin brm-assign takes <username> <organization>.');
    expect(admin(['org-add', 'X', '--colour', 'red']).code).toBe(2);
  });

  it('bootstraps on the embedded database: admin, organizations from a CSV file, exit 1 with a clear refusal', () => {
    expect(
      admin([
        'create-admin',
        'first.admin',
        '--email',
        'fa@hospital.example',
        '--given-name',
        'First',
        '--family-name',
        'Admin',
      ]).code,
    ).toBe(0);
    const csv = join(dataDir, 'orgs.csv');
    writeFileSync(
      csv,
      'organization,domains\nAlpha Med,alpha.example\nBeta Devices,beta.example beta2.example\n',
    );
    const dry = admin(['import', csv]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('row 3: create organization "Beta Devices" with beta.example, beta2.example');
    expect(admin(['org-list']).out).toBe('');
    expect(admin(['import', csv, '--apply']).code).toBe(0);
    expect(admin(['org-list']).out).toContain('Beta Devices\tdomains: beta.example beta2.example');
    const refused = admin(['org-add', 'Alpha Med', '--domain', 'gamma.example']);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('An organization named "Alpha Med" already exists.\n');
    const exported = admin(['audit-export', '--format', 'jsonl']);
    expect(exported.code).toBe(0);
    const actors = exported.out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { actor: string }).actor);
    // Every change is audited as the OS user who ran the command.
    expect(new Set(actors)).toEqual(new Set([`cli:${userInfo().username}`]));
  }, 300_000);

  it("refuses, with exit 1 and the API's messages, text the API would refuse: nothing is stored", () => {
    const bidi = admin(['org-add', 'Evil\u202eOrg\nSecond']);
    expect(bidi.code).toBe(1);
    expect(bidi.err).toBe('name: Line breaks, tabs and invisible formatting characters are not allowed\n');
    const formula = admin(['org-add', '=HYPERLINK("https://evil.example","Click")']);
    expect(formula.code).toBe(1);
    expect(formula.err).toBe('name: Must not start with =, +, - or @\n');
    const shell = admin([
      'add-person',
      'x;touch pwn',
      '--email',
      'x@hospital.example',
      '--given-name',
      'X',
      '--family-name',
      'Y',
    ]);
    expect(shell.code).toBe(1);
    expect(shell.err).toBe('username: A username is letters, digits, dot, dash, underscore or @.\n');
    const csv = join(dataDir, 'evil.csv');
    writeFileSync(csv, 'organization,domains\n"=HYPERLINK(""https://evil.example"",""x"")",evil.example\n');
    const imported = admin(['import', csv, '--apply']);
    expect(imported.code).toBe(1);
    expect(imported.out).toContain('row 2: error: name: Must not start with =, +, - or @');
    const backwards = admin(['message-set', '--text', 'x', '--starts', '2030-01-02', '--ends', '2030-01-01']);
    expect(backwards.code).toBe(1);
    expect(backwards.err).toBe('The end time must be after the start time.\n');
    const listed = admin(['org-list']).out;
    expect(listed).not.toMatch(/Evil|HYPERLINK/);
    expect(admin(['message-show']).out).toContain('"enabled": false');
  }, 300_000);

  it('exit 3 with the reason when the configuration is invalid', () => {
    const result = spawnSync(process.execPath, ['dist/admin.js', 'org-list'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PRA_MODE: 'production' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(3);
    // Only what the CLI uses: the database, not the relay, the secrets, the keys or the IdP.
    expect(result.stderr).toBe('Invalid configuration:\n  DATABASE_URL: required in production mode\n');
  });
});
