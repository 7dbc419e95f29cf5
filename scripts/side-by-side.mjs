#!/usr/bin/env node
// Runs independent commands at once and fails when any of them fails: npm test's typecheck, lint and
// build, which each use one CPU for most of their time (tsc, type-aware eslint, vite), so on a
// 2-core machine they take about as long together as the longest alone (README.md, "Tests").
// Each command's output is printed whole when it ends, under its name and time, never interleaved.
// Every command runs to its end, so one run reports every failure, not only the first.
//
//   node scripts/side-by-side.mjs 'npm run typecheck' 'npm run lint' 'npm run build'
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/side-by-side.mjs <command> [<command> ...]');
  process.exit(2);
}

const children = [];

/** Runs one command in a shell; resolves with its exit code (1 when killed) and its output. */
function run(command) {
  const started = performance.now();
  return new Promise((resolve) => {
    // A process group of its own, so that a signal to this script reaches all the command started.
    const child = spawn(command, { shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      const status = code === 0 ? 'passed' : `failed (exit ${code ?? 'killed'})`;
      process.stdout.write(`\n── ${command}: ${status} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

// Ctrl-C or a SIGTERM (a CI runner ending the step) is passed on to every command's process group.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already ended
      }
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

const codes = await Promise.all(commands.map((command) => run(command)));
const failed = commands.filter((_, index) => codes[index] !== 0);
if (failed.length > 0) {
  console.error(`\nside-by-side: failed: ${failed.join(', ')}`);
  process.exit(1);
}
