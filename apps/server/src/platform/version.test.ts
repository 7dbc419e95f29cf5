import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findVersion, version } from './version';

const rootPackage = JSON.parse(
  readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};

describe('the version number', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pra-version-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is the root package.json's", () => {
    expect(version).toBe(rootPackage.version);
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("is found above a bundle, past a workspace's own package.json (the artifact's layout)", () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pra-portal', version: '9.8.7' }));
    mkdirSync(join(dir, 'apps/server/dist'), { recursive: true });
    writeFileSync(
      join(dir, 'apps/server/package.json'),
      JSON.stringify({ name: '@pra/server', version: '0.0.1' }),
    );
    expect(findVersion(join(dir, 'apps/server/dist'))).toBe('9.8.7');
  });

  it('is an error, not a guess, when no package.json of the portal is above', () => {
    const lone = mkdtempSync(join(tmpdir(), 'pra-version-lone-'));
    try {
      expect(() => findVersion(lone)).toThrow(/no package.json of pra-portal above/);
    } finally {
      rmSync(lone, { recursive: true, force: true });
    }
  });
});
