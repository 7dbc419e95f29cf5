import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { glibcVersion, mallocArenaWarning, youngGenerationCapped, youngGenerationWarning } from './runtime';

describe('the start-up warning about glibc malloc arenas (docs/OPERATIONS.md, "Memory")', () => {
  it('is given on PostgreSQL with glibc when MALLOC_ARENA_MAX is unset', () => {
    expect(mallocArenaWarning(false, true, () => '2.36')).toBe(
      'MALLOC_ARENA_MAX is unset: with glibc each audit export can leave 100 MB or more of the process\'s memory held; start the portal with MALLOC_ARENA_MAX=2 (docs/OPERATIONS.md, "Memory")',
    );
  });

  it('is not given when it is set, on the embedded database, or without glibc', () => {
    const notAsked = () => {
      throw new Error('the C library was asked though the answer was already known');
    };
    expect(mallocArenaWarning(true, true, notAsked)).toBeNull();
    expect(mallocArenaWarning(false, false, notAsked)).toBeNull();
    expect(mallocArenaWarning(false, true, () => undefined)).toBeNull();
  });

  it('knows MALLOC_ARENA_MAX from the environment the config is read from (empty is unset)', () => {
    const standalone = { PRA_MODE: 'standalone' };
    expect(loadConfig({ ...standalone, MALLOC_ARENA_MAX: '2' }).mallocArenaMaxSet).toBe(true);
    expect(loadConfig({ ...standalone, MALLOC_ARENA_MAX: '' }).mallocArenaMaxSet).toBe(false);
    expect(loadConfig(standalone).mallocArenaMaxSet).toBe(false);
  });

  it("reads the C library from Node's report: glibc here (Debian), as a version", () => {
    if (process.platform !== 'linux') return;
    expect(glibcVersion()).toMatch(/^\d+\.\d+/);
  });
});

describe('the start-up warning about an uncapped young generation (docs/OPERATIONS.md, "Memory")', () => {
  it('is given on PostgreSQL when node was started without --max-semi-space-size', () => {
    expect(youngGenerationWarning(true, false)).toBe(
      'node was started without --max-semi-space-size: under load V8\'s young generation grows by tens of MB and keeps them; start the portal with node --max-semi-space-size=8 (docs/OPERATIONS.md, "Memory")',
    );
  });

  it('is not given when capped, or on the embedded database', () => {
    expect(youngGenerationWarning(true, true)).toBeNull();
    expect(youngGenerationWarning(false, false)).toBeNull();
  });

  it('finds the flag on the command line or in NODE_OPTIONS, in either spelling', () => {
    expect(youngGenerationCapped(['--max-semi-space-size=8'], '')).toBe(true);
    expect(youngGenerationCapped(['--max_semi_space_size', '8'], '')).toBe(true);
    expect(youngGenerationCapped([], '--enable-source-maps  --max-semi-space-size=4')).toBe(true);
    expect(youngGenerationCapped(['--max-old-space-size=512'], '--enable-source-maps')).toBe(false);
    expect(youngGenerationCapped([], '')).toBe(false);
    expect(loadConfig({ PRA_MODE: 'standalone', NODE_OPTIONS: '--max-semi-space-size=8' }).nodeOptions).toBe(
      '--max-semi-space-size=8',
    );
    // --max-semi-space-size-something is another flag, not this one.
    expect(youngGenerationCapped(['--max-semi-space-sizes=8'], '')).toBe(false);
  });
});
