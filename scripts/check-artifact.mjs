// Installs the production artifact as docs/OPERATIONS.md says and proves it runs with `node` alone:
//   node scripts/check-artifact.mjs dist/pra-portal-<version>.tgz <empty folder>
// It unpacks the tarball into the empty folder (CI then runs the browser journeys against it:
// PRA_E2E_ARTIFACT), checks what it carries (no dev tooling, no source maps, the licences of what
// it ships), starts `node server.mjs` in it with no PATH and no npm (a fresh standalone instance
// whose data lives outside the artifact) and waits for /healthz 200, then checks the version on
// the metrics listener, the service check, the operators' CLI, and a clean SIGTERM shutdown.
// Exit code 0 when every check holds; the failing check's message otherwise.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [tarball, into] = process.argv.slice(2);
if (!tarball || !into) {
  process.stderr.write('usage: node scripts/check-artifact.mjs <pra-portal-<version>.tgz> <empty folder>\n');
  process.exit(2);
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function main() {
  check(existsSync(into) && readdirSync(into).length === 0, `${into} must be an existing empty folder`);
  execFileSync('tar', ['-xzf', tarball, '-C', into]);
  const [top, ...others] = readdirSync(into);
  check(
    top && others.length === 0 && /^pra-portal-\d+\.\d+\.\d+/.test(top),
    `one pra-portal-<version> folder, not ${[top, ...others]}`,
  );
  const app = join(into, top);
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  check(top === `pra-portal-${manifest.version}`, `the folder ${top} names version ${manifest.version}`);

  // What it carries: the production packages only, and the licences of what it ships.
  for (const file of [
    'server.mjs',
    'admin.mjs',
    'apps/web/dist/index.html',
    'THIRD-PARTY-LICENSES',
    'LICENSE',
    '.env.example',
  ]) {
    check(existsSync(join(app, file)), `${file} is missing`);
  }
  for (const tool of [
    'typescript',
    'vitest',
    'vite',
    'esbuild',
    'eslint',
    'tsx',
    '@playwright/test',
    'playwright-core',
    'lighthouse',
    'sass',
  ]) {
    check(!existsSync(join(app, 'node_modules', tool)), `dev tooling shipped: node_modules/${tool}`);
  }
  check(!readdirSync(join(app, 'apps/server/dist')).some((f) => f.endsWith('.map')), 'source maps shipped');
  const licences = readFileSync(join(app, 'THIRD-PARTY-LICENSES'), 'utf8');
  const shipped = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('@')) walk(join(dir, entry));
      else if (existsSync(join(dir, entry, 'package.json'))) {
        const pkg = JSON.parse(readFileSync(join(dir, entry, 'package.json'), 'utf8'));
        shipped.push(`${pkg.name} ${pkg.version}`);
        if (existsSync(join(dir, entry, 'node_modules'))) walk(join(dir, entry, 'node_modules'));
      }
    }
  };
  walk(join(app, 'node_modules'));
  for (const pkg of shipped)
    check(licences.includes(`\n${pkg}\nLicence: `), `THIRD-PARTY-LICENSES lacks ${pkg}`);

  // `node` alone: no PATH (no npm, no shell), data outside the artifact.
  const data = mkdtempSync(join(tmpdir(), 'pra-artifact-data-'));
  const [port, metricsPort] = [await freePort(), await freePort()];
  const env = {
    PRA_MODE: 'standalone',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    DATA_DIR: join(data, 'data'),
    HOME: data,
    LOG_LEVEL: 'warn',
    DEMO_PASSWORD: 'Artifact-Check-Password-1',
  };
  const cli = execFileSync(process.execPath, ['admin.mjs', '--help'], { cwd: app, env, encoding: 'utf8' });
  check(/create-admin/.test(cli), `admin.mjs --help lists no commands:\n${cli}`);

  const started = Date.now();
  const child = spawn(process.execPath, ['server.mjs'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const base = `http://127.0.0.1:${port}`;
  try {
    // Polls until `accept` holds for an answer; refused connections (not listening yet) count as no.
    const waitFor = async (url, accept) => {
      while (Date.now() - started < 120_000 && child.exitCode === null) {
        const res = await fetch(url).catch(() => null);
        if (res && (await accept(res))) return true;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return false;
    };
    check(
      await waitFor(`${base}/healthz`, (res) => res.status === 200),
      `no /healthz 200 within 120 s (exit: ${child.exitCode})`,
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    // Ready for traffic: database open and migrated (the readiness probe).
    check(await waitFor(`${base}/readyz`, (res) => res.status === 200), '/readyz never answered 200');
    const status = await fetch(`${base}/api/service_check`);
    check(status.status === 200 && (await status.text()) === 'status: OK\n', '/api/service_check is not OK');
    const home = await fetch(`${base}/home`);
    check(
      home.status === 200 && (await home.text()).includes('<div id="root">'),
      '/home does not serve the web app',
    );
    // The metrics listener opens once the portal listens.
    const buildInfo = `pra_build_info{version="${manifest.version}",node="${process.version}"} 1`;
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    check(
      await waitFor(metricsUrl, async (res) => (await res.text()).includes(buildInfo)),
      `the metrics lack ${buildInfo}`,
    );
    child.kill('SIGTERM');
    const code = await exited;
    check(code === 0, `exit code ${code} after SIGTERM`);
    const size = (statSync(tarball).size / 1024 / 1024).toFixed(1);
    process.stdout.write(
      `artifact: ${top} (${size} MB) runs with node ${process.version} alone: /healthz 200 after ${seconds} s, ` +
        `ready, version ${manifest.version} in the metrics, ${shipped.length} shipped packages licensed, stopped cleanly\n`,
    );
  } catch (error) {
    child.kill('SIGKILL');
    process.stderr.write(Buffer.concat(output).toString());
    throw error;
  }
}

main().catch((error) => {
  process.stderr.write(`artifact check failed: ${error.message}\n`);
  process.exit(1);
});
