// `npm run package`: the production artifact, dist/pra-portal-<version>.tgz, which runs with `node`
// alone (no npm install on the target; docs/OPERATIONS.md, "Install").
//
// Inside pra-portal-<version>/, in the repository's own layout (so every file finds the others as
// it does in a clone):
//   server.mjs, admin.mjs           start the portal; the operators' CLI (`node admin.mjs --help`)
//   package.json                    the version, the supported Node.js lines, `type: module`
//   apps/server/dist/               the server bundle (its code and its npm dependencies' code, the
//                                   database migrations included), without source maps
//   apps/web/dist/                  the built web app
//   node_modules/                   only the packages the bundle loads at run time (runtimePackages
//                                   in apps/server/build.mjs: WebAssembly, a native addon, schema
//                                   and stylesheet files) and their dependencies: no dev tooling
//   THIRD-PARTY-LICENSES            the licences of every production dependency (bundled or shipped)
//   LICENSE, CHANGELOG.md, SECURITY.md, .env.example, docs/OPERATIONS.md
//
// `--no-build` packages the current builds instead of building first (CI builds once).
// The native addon (@node-rs/argon2) is the build machine's platform's: package on the platform
// you deploy to (linux x64 glibc here).
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionPackages, thirdPartyLicenses } from './third-party.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const readJson = (file) => JSON.parse(readFileSync(join(root, file), 'utf8'));
const pkg = readJson('package.json');
const name = `pra-portal-${pkg.version}`;
const out = join(root, 'dist');
const stage = join(out, name);
const tarball = join(out, `${name}.tgz`);

if (!process.argv.includes('--no-build'))
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
for (const built of [
  'apps/server/dist/server.js',
  'apps/server/dist/admin.js',
  'apps/server/dist/export-worker.js',
  'apps/web/dist/index.html',
]) {
  if (!existsSync(join(root, built))) throw new Error(`package: ${built} is missing; run npm run build`);
}

rmSync(stage, { recursive: true, force: true });
rmSync(tarball, { force: true });
mkdirSync(stage, { recursive: true });

const copy = (from, filter = () => true) =>
  cpSync(join(root, from), join(stage, from), { recursive: true, dereference: true, filter });
copy('apps/server/dist', (file) => !file.endsWith('.map'));
copy('apps/web/dist');
for (const file of ['LICENSE', 'CHANGELOG.md', 'SECURITY.md', '.env.example', 'docs/OPERATIONS.md'])
  copy(file);

const write = (file, text) => {
  mkdirSync(dirname(join(stage, file)), { recursive: true });
  writeFileSync(join(stage, file), text);
};
write(
  'package.json',
  `${JSON.stringify(
    {
      name: pkg.name,
      version: pkg.version,
      description: pkg.description,
      license: pkg.license,
      private: true,
      type: 'module',
      engines: pkg.engines,
      scripts: { start: 'node server.mjs', admin: 'node admin.mjs' },
    },
    null,
    2,
  )}\n`,
);
// The bundle's files are ES modules: the nearest package.json says so.
write(
  'apps/server/package.json',
  `${JSON.stringify({ name: '@pra/server', version: pkg.version, private: true, type: 'module' }, null, 2)}\n`,
);
write(
  'server.mjs',
  "// Starts PRA Portal with the settings in the environment (docs/OPERATIONS.md): `node server.mjs`.\nimport './apps/server/dist/server.js';\n",
);
write(
  'admin.mjs',
  "// The operators' command line: `node admin.mjs --help`.\nimport './apps/server/dist/admin.js';\n",
);

// node_modules: the run-time packages and what they need, each at its path in this clone.
const { runtimePackages } = await import('../apps/server/build.mjs');
const shipped = productionPackages(root, runtimePackages, join(root, 'apps/server'));
for (const dir of shipped.keys()) {
  const own = join(dir, 'node_modules');
  cpSync(dir, join(stage, relative(root, dir)), {
    recursive: true,
    dereference: true,
    // A package's own node_modules holds other packages: those are copied in their own right.
    filter: (file) => file !== own,
  });
}

// The licences of everything the artifact carries: the bundles' dependencies and the shipped ones.
const workspaces = ['apps/server', 'apps/web'];
const bundled = productionPackages(
  root,
  workspaces.flatMap((ws) => Object.keys(readJson(`${ws}/package.json`).dependencies ?? {})),
  ...workspaces.map((ws) => join(root, ws)),
);
for (const [dir, info] of shipped) {
  if (!bundled.has(dir)) throw new Error(`package: ${info.name} is shipped but not a production dependency`);
}
write('THIRD-PARTY-LICENSES', thirdPartyLicenses(bundled, `${pkg.name} ${pkg.version}`));

execFileSync(
  'tar',
  ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '-czf', tarball, '-C', out, name],
  { stdio: 'inherit' },
);

function sizeOf(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, entry) => sum + sizeOf(join(path, entry)), 0);
}
const licensed = new Set([...bundled.values()].map((info) => `${info.name}@${info.version}`)).size;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
process.stdout.write(
  `package: ${relative(root, tarball)}: ${mb(statSync(tarball).size)} (${mb(sizeOf(stage))} unpacked: ` +
    `${shipped.size} packages in node_modules, ${mb(sizeOf(join(stage, 'node_modules')))}; ` +
    `licences of ${licensed} production dependencies in ${basename(stage)}/THIRD-PARTY-LICENSES)\n`,
);
