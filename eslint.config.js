// Lint rules for the whole monorepo: typescript-eslint's recommended type-aware set plus React hooks.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/.tsbuild/**', '**/node_modules/**', 'data/**', '**/test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
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
);
