import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script, without type declarations
import { compiledPath, compileStyle, styleEntries } from '../../scripts/compile-styles.mjs';

// The build uses the committed CSS and never runs Sass: each file must be what its .scss compiles to.
describe('compiled stylesheets', () => {
  it.each(styleEntries as string[])(
    '%s is compiled (npm run styles -w @pra/web)',
    (entry) => {
      expect(readFileSync(compiledPath(entry) as string, 'utf8')).toBe(compileStyle(entry));
    },
    60_000,
  );
});
