import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The name of the root package.json, whose version is the portal's one version number. */
const ROOT_PACKAGE = 'pra-portal';

/**
 * The portal's version: the root package.json's `version`, found by walking up from this module.
 * The same walk finds it from src/ (tests, `npm run dev`), from the bundled dist/ of a clone and
 * from the packaged artifact (`npm run package` puts that package.json at the artifact's root).
 */
export function findVersion(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === ROOT_PACKAGE && typeof pkg.version === 'string') return pkg.version;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (dirname(dir) === dir) throw new Error(`no package.json of ${ROOT_PACKAGE} above ${from}`);
  }
}

export const version = findVersion();
