// scripts/third-party.mjs: which installed packages the artifact ships and whose licences it lists.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface PackageInfo {
  name: string;
  version: string;
  licence: string;
}
interface ThirdParty {
  productionPackages: (root: string, names: string[], ...fromDirs: string[]) => Map<string, PackageInfo>;
  thirdPartyLicenses: (packages: Map<string, PackageInfo>, product: string) => string;
}
const { productionPackages, thirdPartyLicenses } = (await import(
  new URL('../../../scripts/third-party.mjs', import.meta.url).href
)) as ThirdParty;

describe('scripts/third-party.mjs', () => {
  const root = mkdtempSync(join(tmpdir(), 'pra-third-party-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const put = (dir: string, manifest: object, licence?: string) => {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, 'package.json'), JSON.stringify(manifest));
    if (licence) writeFileSync(join(root, dir, 'LICENSE'), licence);
  };
  // a needs b 2 (nested under it), an optional package that is not installed, and a peer p;
  // the workspace w needs c, which needs the hoisted b 1. unused is installed but needed by none.
  put('apps/server', { name: '@pra/server', dependencies: { a: '1', w: '1' } });
  put(
    'node_modules/a',
    {
      name: 'a',
      version: '1.0.0',
      license: 'MIT',
      dependencies: { b: '^2' },
      optionalDependencies: { gone: '1' },
      peerDependencies: { p: '1' },
    },
    'The a licence text',
  );
  put('node_modules/a/node_modules/b', { name: 'b', version: '2.0.0', license: 'ISC' }, 'b 2 licence');
  put('node_modules/b', { name: 'b', version: '1.0.0', license: { type: 'BSD-2-Clause' } });
  put('node_modules/c', { name: 'c', version: '3.1.0', license: 'Apache-2.0', dependencies: { b: '^1' } });
  put('node_modules/p', { name: 'p', version: '1.0.0', license: 'MIT' });
  put('node_modules/unused', { name: 'unused', version: '1.0.0', license: 'MIT' });
  put('packages/w', { name: 'w', version: '1.0.0', dependencies: { c: '^3' } });
  mkdirSync(dirname(join(root, 'node_modules/w')), { recursive: true });
  symlinkSync('../packages/w', join(root, 'node_modules/w'));

  it('follows dependencies as Node resolves them, installed optional ones and peers, through workspaces', () => {
    const found = productionPackages(root, ['a', 'w'], join(root, 'apps/server'));
    const listed = [...found].map(
      ([dir, info]) => `${dir.slice(root.length + 1)} ${info.name}@${info.version} ${info.licence}`,
    );
    expect(listed.sort()).toEqual(
      [
        'node_modules/a/node_modules/b b@2.0.0 ISC',
        'node_modules/a a@1.0.0 MIT',
        'node_modules/b b@1.0.0 BSD-2-Clause',
        'node_modules/c c@3.1.0 Apache-2.0',
        'node_modules/p p@1.0.0 MIT',
      ].sort(),
    );
  });

  it('refuses a missing required dependency instead of shipping without it', () => {
    put('node_modules/broken', { name: 'broken', version: '1.0.0', dependencies: { nowhere: '1' } });
    expect(() => productionPackages(root, ['broken'], join(root, 'apps/server'))).toThrow(
      /nowhere, needed from .* is not installed/,
    );
  });

  it('lists each package once with its licence and the text of its licence files', () => {
    const text = thirdPartyLicenses(
      productionPackages(root, ['a', 'w'], join(root, 'apps/server')),
      'pra-portal 9.9.9',
    );
    expect(text).toMatch(/^Third-party software in pra-portal 9\.9\.9\n/);
    expect(text).toContain('5 packages');
    expect(text).toContain('  b 1.0.0: BSD-2-Clause\n  b 2.0.0: ISC\n  c 3.1.0: Apache-2.0\n');
    expect(text).toContain('\na 1.0.0\nLicence: MIT\n\nLICENSE:\n\nThe a licence text\n');
    expect(text).toContain('\nc 3.1.0\nLicence: Apache-2.0\n\n(The package carries no licence file');
    expect(text).not.toContain('unused');
  });
});
