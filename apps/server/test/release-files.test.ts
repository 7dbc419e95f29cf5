// The files people look for in a release, and the one version number they and the build carry.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
const rootPackage = JSON.parse(read('package.json')) as {
  version: string;
  license: string;
  engines: { node: string };
};

describe('release files', () => {
  it('LICENSE is the Apache License 2.0, as package.json and the README say', () => {
    expect(rootPackage.license).toBe('Apache-2.0');
    const licence = read('LICENSE');
    expect(licence).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(licence).toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
    expect(read('README.md')).toContain('Apache License 2.0 ([LICENSE](LICENSE)');
  });

  it("CHANGELOG.md has an Unreleased section and a dated entry for package.json's version", () => {
    const changelog = read('CHANGELOG.md');
    const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe('Unreleased');
    expect(headings).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${rootPackage.version.replaceAll('.', '\\.')} - \\d{4}-\\d{2}-\\d{2}$`),
      ),
    );
  });

  it("SECURITY.md says how to report privately and supports this version's line and the engines' Node.js lines", () => {
    const security = read('SECURITY.md');
    expect(security).toMatch(/report a vulnerability privately/i);
    const [major, minor] = rootPackage.version.split('.');
    expect(security).toContain(`| ${major}.${minor}.x (newest) | yes |`);
    const lines = rootPackage.engines.node.split('||').map((range) => range.match(/\d+/)?.[0]);
    expect(security).toContain(`\`engines\`: ${lines.slice(0, -1).join(', ')} or ${lines.at(-1)}`);
  });

  it('every workspace carries the one version number', () => {
    for (const workspace of ['apps/server', 'apps/web', 'packages/contracts', 'e2e']) {
      const { version } = JSON.parse(read(`${workspace}/package.json`)) as { version: string };
      expect(version, workspace).toBe(rootPackage.version);
    }
  });
});
