import { readFileSync } from 'node:fs';
import { ConfigError } from '../config';

/** What an operator is told for the errors reading a configured file gives. */
const reasons: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: "this process's user may not read it",
  EPERM: "this process's user may not read it",
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'its symbolic links go round in a loop',
};

/**
 * The text of the file a setting names (SAML_SP_KEY_FILE, IDP_METADATA, …). A file that cannot be
 * read stops the start with the variable, the path and why, never a bare errno.
 */
export function readSettingFile(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new ConfigError(
      `${variable}: cannot read ${path}: ${reasons[code] ?? `reading failed (${code || (error as Error).message})`}`,
    );
  }
}
