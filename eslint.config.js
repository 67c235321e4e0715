// Lint: a small, type-aware rule set that catches real bugs (promises nobody awaits or handles,
// promises where a callback wants a value, unused code). No await-thenable: Durable Object stubs'
// RPC types read as plain values, yet their calls are promises., not style: Prettier owns the layout.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // examples/: apps with their own toolchains and dependencies (test/examples/run.ts builds each).
  { ignores: ['node_modules/', 'dist/', '.wrangler/', 'test-results/', 'coverage/', '**/*.js', 'examples/'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        project: ['./tsconfig.json', './worker/tsconfig.json', './widget/tsconfig.json', './tsconfig.tools.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      'no-unreachable': 'error',
      'no-fallthrough': 'error',
      'no-self-assign': 'error',
      'no-dupe-keys': 'error',
    },
  },
  {
    // shared/ compiles under three projects (Node, DOM, workerd), whose typings differ: a cast one
    // of them needs can look needless to the project lint reads it with.
    files: ['shared/**/*.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'off' },
  },
);
