// Lint rules for the whole monorepo: typescript-eslint's recommended type-aware set plus React hooks.
// Off from that set, and why:
// - require-await: fastify plugins (`async (app) => { app.get(...) }`) and interface methods (kysely's
//   migration provider and dialect, node-saml's cache) are async by contract with nothing to await.
// - no-unsafe-assignment/-member-access/-call/-argument in tests and journeys only: their response
//   bodies (`res.json()`) are `any` by design and read field by field; shipped code keeps them.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import layers from './tools/eslint-plugin-layers/index.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/.tsbuild/**', '**/node_modules/**', 'data/**', '**/test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware linting: each TypeScript file is checked against the tsconfig.json nearest to it.
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'apps/server/test/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/require-await': 'off',
      // In the set already; named because unhandled and misplaced promises are what it is here for.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings through the config module.' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The config module is the one place that reads the environment; tests and tooling set it up.
    files: [
      'apps/server/src/config.ts',
      '**/*.test.ts',
      'e2e/**',
      'apps/server/test/**',
      'vitest.config.ts',
      'bench/**',
      'apps/server/build.mjs',
      'scripts/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The floors and features of docs/ARCHITECTURE.md, and no import cycles (tools/eslint-plugin-layers).
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/server/src/**/*.ts'],
    plugins: { layers },
    rules: { 'layers/floors': 'error', 'layers/no-cycle': 'error' },
  },
  {
    // SQL statements only in the table owners (store/) and the migrations; the database engine's own
    // statements (db.ts: its probe and the migrator's bookkeeping; pglite-dialect.ts: transaction
    // control) are the two named exceptions. Tests build fixtures as they need.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/store/**',
      'apps/server/src/migrations/**',
      'apps/server/src/platform/db.ts',
      'apps/server/src/platform/pglite-dialect.ts',
      '**/*.test.ts',
    ],
    plugins: { layers },
    rules: { 'layers/sql-in-owners': 'error' },
  },
  {
    // The policies write the scope conditions (fragments, no statements) that owners take as arguments.
    files: ['apps/server/src/policies/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { layers },
    rules: { 'layers/sql-in-owners': ['error', { fragments: true }] },
  },
  {
    // Governance decides by the one clock (GOVERNANCE.md §2.1): no Date.now(), argumentless new
    // Date() or SQL now() in its paths; the instant comes from ctx.clock and is passed as a parameter.
    files: [
      'apps/server/src/identity/governance/**/*.ts',
      'apps/server/src/store/governance.ts',
      'apps/server/src/store/notices.ts',
      'apps/server/src/store/delegations.ts',
      'apps/server/src/store/activity-reviews.ts',
      'apps/server/src/features/{access-*,activity-review,account-lifecycle,approval-routing,sponsorship,policy-attestation,governance*}/**/*.ts',
      'apps/server/src/platform/local-time.ts',
    ],
    ignores: ['**/*.test.ts'],
    plugins: { layers },
    rules: { 'layers/clock': 'error' },
  },
  {
    // Plain JavaScript (build scripts, this file) belongs to no TypeScript project: syntax rules only.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
);
