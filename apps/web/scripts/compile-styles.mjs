// Compiles the app's Sass (Bootstrap's parts, see src/styles/_config.scss) into the committed
// `*.compiled.css` beside each entry point, which the app imports. dart-sass compiling Bootstrap
// took ~6.5 s of each web build (most of a first `npm start`); now it runs only when a stylesheet
// changes: `npm run styles -w @pra/web`. src/styles/compiled-styles.test.ts fails while a
// compiled file is not what its .scss compiles to.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as sass from 'sass';

// Paths from the file's own path (no URL objects: the check also runs in the web tests' jsdom).
const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, '../src/');
const nodeModules = join(here, '../../../node_modules/');

/** The Sass entry points (each imported by the app as its .compiled.css), relative to src/. */
export const styleEntries = [
  'styles/base.scss',
  'styles/layout.scss',
  'styles/toasts.scss',
  'features/manage-users/manage-users.scss',
  'features/terminate-vendors/terminate-vendors.scss',
];

export const compiledPath = (entry) => `${src}${entry.replace(/\.scss$/, '.compiled.css')}`;

/** The CSS file `entry` compiles to, with a header naming its source. */
export function compileStyle(entry) {
  const { css } = sass.compile(`${src}${entry}`, {
    loadPaths: [nodeModules],
    style: 'expanded',
    // Bootstrap 5.3's Sass still uses @import and global functions; its deprecation notices are not ours.
    quietDeps: true,
    silenceDeprecations: ['import', 'global-builtin', 'color-functions'],
  });
  const name = entry.split('/').pop();
  return `/* Compiled from ${name} by apps/web/scripts/compile-styles.mjs (npm run styles -w @pra/web): do not edit. */\n${css}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const entry of styleEntries) {
    const css = compileStyle(entry);
    const path = compiledPath(entry);
    let old = '';
    try {
      old = readFileSync(path, 'utf8');
    } catch {
      // first compile
    }
    if (old !== css) writeFileSync(path, css);
    console.log(`${old === css ? 'unchanged' : 'wrote'} ${path.slice(src.length)}`);
  }
}
