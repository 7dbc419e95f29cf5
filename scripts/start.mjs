// `npm start`: builds what is out of date, then runs the portal in this process.
//
// Each build (web app, server) is skipped when its output carries a stamp of the sources it was
// built from (a SHA-256 of their content, not their times: a fresh clone's files are all new) and
// the sources still hash to it. When the web app must be built (a fresh clone, a change), its
// build runs in a child process while this one builds the server and starts the portal: on a
// first start creating the embedded database takes as long as a good part of the build, and the
// two overlap on the machine's cores. The portal listens once the web build is in.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const stampDir = join(root, 'node_modules/.cache/pra-start');

/** What each build reads, and the file that must exist after it. */
const builds = {
  server: {
    inputs: ['apps/server/src', 'apps/server/build.mjs', 'apps/server/package.json', 'packages/contracts'],
    output: 'apps/server/dist/portal.js',
    command: [process.execPath, ['build.mjs'], 'apps/server'],
  },
  web: {
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/scripts',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'packages/contracts',
    ],
    output: 'apps/web/dist/index.html',
    command: ['npm', ['run', 'build', '--silent'], 'apps/web'],
    // Below the portal's own work: on a first start the portal's database creation is the longer
    // path, and the two share the machine's cores (they slowed each other by half or more).
    niceness: 10,
  },
};

function* files(path) {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) {
    if (name === 'node_modules' || name === 'dist') continue;
    yield* files(join(path, name));
  }
}

/** SHA-256 over the inputs' paths and contents, and the installed dependencies' lock. */
function sourceHash(inputs) {
  const hash = createHash('sha256');
  for (const input of [...inputs, 'package-lock.json']) {
    for (const file of files(join(root, input))) {
      hash.update(file.slice(root.length)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

function stampFile(name) {
  return join(stampDir, `${name}.sha256`);
}

function isCurrent(name, hash) {
  const stamp = stampFile(name);
  return (
    existsSync(join(root, builds[name].output)) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8').trim() === hash
  );
}

/** Builds still running; a start that fails or ends stops them with it. */
const running = new Set();
process.on('exit', () => running.forEach((child) => child.kill()));

function run(command, args, what, cwd = '.', niceness = 0) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: join(root, cwd), stdio: 'inherit' });
    running.add(child);
    // Set before it starts its own processes (vite, the prerender), which inherit it.
    if (niceness && child.pid) setPriority(child.pid, niceness);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      running.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`${what} failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

async function build(name, hash) {
  const [command, args, cwd] = builds[name].command;
  await run(command, args, `the ${name} build`, cwd, builds[name].niceness);
  mkdirSync(stampDir, { recursive: true });
  writeFileSync(stampFile(name), `${hash}\n`);
}

let webBuild;
try {
  const hashes = { server: sourceHash(builds.server.inputs), web: sourceHash(builds.web.inputs) };
  // The web build first: it needs nothing of the server's and runs on while the server is built
  // (esbuild, a second or two) and the portal creates its database.
  if (!isCurrent('web', hashes.web)) {
    webBuild = build('web', hashes.web);
    // Awaited by the portal once its database is open; a failure before then is not unhandled.
    webBuild.catch(() => {});
  }
  if (!isCurrent('server', hashes.server)) await build('server', hashes.server);
} catch (error) {
  process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const { runPortal, reportStartFailure } = await import(
  pathToFileURL(join(root, 'apps/server/dist/portal.js')).href
);
runPortal({ webBuild }).catch(reportStartFailure);
