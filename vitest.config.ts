import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Test files run in 3 workers at once, also on a 2-core machine (vitest's default there is 1):
    // most of the server's files wait on I/O (PostgreSQL, child processes such as slapd, nginx,
    // php-fpm and the built server, outages that last seconds), so one worker leaves the CPUs idle
    // most of the time. Every file has its own databases, ports (free-port.ts) and temp folders.
    // Not more: four starved CPU-bound files (paging on PGlite) past their 30 s timeouts under load.
    // VITEST_MAX_WORKERS overrides it (README.md, "Tests").
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 3,
    projects: [
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          // 90 s, not 30: .ci/run also runs these files on the oldest Node.js line beside the browser
          // journeys at a lower priority, where CPU-bound walks (paging on PGlite across every filter
          // and sort) took over 30 s. A test that hangs still fails, 60 s later.
          testTimeout: 90_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: { name: 'contracts', root: 'packages/contracts', include: ['src/**/*.test.ts'] },
      },
      { test: { name: 'tools', root: 'tools', include: ['**/*.test.mjs'] } },
      './apps/web/vite.config.ts',
    ],
  },
});
