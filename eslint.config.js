import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const DAYJS = { name: 'dayjs', importNames: ['default'], message: 'import dayjs from renderers/runtime/dayjs.ts, which sets its Chinese locale.' };
export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.data', '.bench', '.tmp', 'test-results', 'playwright-report', 'coverage'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // dayjs comes with its Chinese locale from renderers/runtime/dayjs.ts (set where dates are used).
  // The layering of DESIGN.md: src -> renderers -> schemas; renderers never reach into src,
  // the server shares only the catalogue and plain types.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [DAYJS] }] },
  },
  {
    files: ['renderers/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [DAYJS], patterns: [{ group: ['**/src/**', '../src/*'], message: 'renderers must not import the console shell (src/).' }] }] },
  },
  {
    files: ['renderers/runtime/dayjs.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/src/**', '**/renderers/**', 'react', 'antd'], message: 'the server shares only schemas/ data and plain types.' }] }] },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
  },
);
