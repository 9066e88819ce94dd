// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = { regex: '^node:', message: 'src-shared and src-renderer run outside Node: no node:* imports.' };
const layer = (name, message) => ({ regex: `(^|/)${name}(/|$)`, message });
const ELECTRON = { regex: '^electron(/|$)|^electron-store$', message: 'Only src-main/electron may import electron.' };
const SHELLS = {
  regex: '(^|/)(electron|headless)/',
  message: 'Nothing imports the Electron or headless shells but their own entry points.',
};

/**
 * Import directions of DESIGN.md §1: renderer -> shared; main -> shared;
 * server -> shared. src-shared imports nothing but zod.
 */
const boundaries = [
  {
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NODE_BUILTINS,
            ELECTRON,
            layer('src-main', 'src-shared is a contract: it imports no runtime.'),
            layer('src-server', 'src-shared is a contract: it imports no runtime.'),
            layer('src-renderer', 'src-shared is a contract: it imports no runtime.'),
            { regex: '^(?!zod$|\\.)', message: 'src-shared imports only zod and its own files.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ELECTRON,
            layer('src-main', 'The reference server depends on src-shared only.'),
            layer('src-renderer', 'The reference server depends on src-shared only.'),
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ELECTRON,
            SHELLS,
            layer('src-renderer', 'src-main talks to the UI through the ipc contract only.'),
            layer(
              'src-server',
              'Only src-main/core/demo-server.ts starts the reference server; the rest talks HTTP to it.',
            ),
          ],
        },
      ],
    },
  },
  {
    // "Try it locally": the one place the app starts the bundled reference server in-process
    files: ['src-main/core/demo-server.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ELECTRON, SHELLS] }] },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NODE_BUILTINS,
            ELECTRON,
            layer('src-main', 'The UI talks to the core only through the MediaSyncBridge.'),
            layer('src-server', 'The UI talks to the core only through the MediaSyncBridge.'),
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'test-results/', '.media-server/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only (STYLE.md).' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src-server/file-host/assets/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    files: ['*.config.{js,ts}', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  ...boundaries,
);
