import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What an operator is told for the errors a folder that cannot be written gives. */
const reasons: Record<string, string> = {
  EROFS: 'it is on a read-only file system',
  EACCES: 'this process may not write there',
  EPERM: 'this process may not write there',
  ENOSPC: 'its disk is full',
  ENOTDIR: 'a file is in the way of the folder',
};

/**
 * Makes sure DATA_DIR can be written before anything is started in it (the embedded database,
 * generated secrets, the demo accounts' file): a read-only, foreign or full folder stops the start
 * with a sentence naming the setting and the folder, instead of an errno from deep inside.
 */
export function ensureWritableDataDir(dir: string): void {
  const probe = join(dir, `.write-check-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(probe, 'ok');
    rmSync(probe);
  } catch (error) {
    const code = realCause(dir, (error as NodeJS.ErrnoException).code ?? '');
    const why = reasons[code] ?? `writing there failed (${code || 'unknown error'})`;
    throw new Error(
      `DATA_DIR (${dir}) is not writable: ${why}. Standalone mode keeps its embedded database and generated secrets there: point DATA_DIR at a writable folder.`,
    );
  }
}

/**
 * A recursive mkdir on a read-only file system says ENOENT; the nearest folder that exists says
 * why (EROFS, EACCES) when written to.
 */
function realCause(dir: string, code: string): string {
  if (code !== 'ENOENT') return code;
  let parent = dirname(dir);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  const probe = join(parent, `.write-check-${process.pid}`);
  try {
    writeFileSync(probe, 'ok');
    rmSync(probe);
    return code;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? code;
  }
}
