// @ts-check
import { dirname, relative, resolve } from 'node:path';
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
 * Import directions of docs/ARCHITECTURE.md, Layers: renderer -> shared; main -> shared;
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
            {
              regex: '^node:(crypto|zlib)$',
              message:
                'nodeCrypto() / nodeZlib() of common/lazy-builtins.ts: imported, node:crypto costs every command ~4 ms at start, node:zlib ~2 ms.',
            },
            {
              // src-server/private-files.ts imports nothing of the server: the app's data folder is made private by it too
              regex: '(^|/)src-server/(?!private-files\\.js$)',
              message: 'Only src-main/demo starts the reference server; the rest talks HTTP to it.',
            },
          ],
        },
      ],
    },
  },
  {
    // "Try it locally": the one place the app starts the bundled reference server in-process
    files: ['src-main/demo/**/*.ts'],
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

/**
 * Which folder of src-main may import which (docs/ARCHITECTURE.md, Folders of
 * src-main): each folder its own files and those listed. The ports
 * (core/ports.ts: interfaces and their no-op defaults) are everyone's, so a
 * lower folder asks for what a higher one provides without importing it.
 */
const SRC_MAIN_LAYERS = {
  common: [],
  system: ['common'],
  storage: ['common', 'system'],
  'api-client': ['common'],
  imports: ['common', 'api-client'],
  conversions: ['common', 'api-client', 'storage'],
  uploads: ['common', 'api-client', 'storage', 'sync/stability.ts'],
  sync: ['common', 'storage', 'uploads'],
  core: ['common', 'api-client', 'storage', 'imports', 'conversions', 'uploads', 'sync'],
  // "Try it locally": the one folder that loads src-server (dynamically), given to the core as its DemoServerPort
  demo: ['common'],
  cli: ['common', 'system', 'storage', 'core', 'demo'],
  headless: ['common', 'system', 'storage', 'core', 'demo'],
  electron: ['common', 'system', 'storage', 'core', 'demo'],
};
const EVERYONES = ['core/ports.ts'];

/** media-sync/layers: an import of src-main that SRC_MAIN_LAYERS does not allow its folder. */
const layers = {
  meta: {
    type: 'problem',
    messages: {
      layer: 'src-main/{{from}} may not import src-main/{{to}} (docs/ARCHITECTURE.md, Folders of src-main).',
    },
  },
  create(context) {
    const root = resolve(import.meta.dirname, 'src-main');
    const folderOf = (path) => relative(root, path).split('/');
    const [from] = folderOf(context.filename);
    const allowed = SRC_MAIN_LAYERS[from];
    if (!allowed) return {};
    const check = (node) => {
      const spec = node?.type === 'Literal' && typeof node.value === 'string' ? node.value : null;
      if (!spec?.startsWith('.')) return;
      const target = resolve(dirname(context.filename), spec).replace(/\.js$/, '.ts');
      const parts = folderOf(target);
      if (parts[0] === '..' || parts[0] === from) return;
      const file = parts.join('/');
      if ([...allowed, ...EVERYONES].some((entry) => entry === parts[0] || entry === file)) return;
      context.report({ node, messageId: 'layer', data: { from, to: parts.length > 1 ? parts[0] : file } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

/**
 * Every file that renders UI: each user-facing string comes from the message
 * catalogs (src-shared/i18n; docs/ui.md, "Languages"). The text helpers
 * (.ts) are covered by the catalog test and their own tests in German.
 */
const TRANSLATED_FILES = ['src-renderer/**/*.tsx'];

/** Attributes a person reads or hears: a literal in them is a string the catalogs miss. */
const TEXT_ATTRIBUTES = new Set([
  'alt',
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-valuetext',
  'title',
  'placeholder',
  'label',
  'legend',
  'hint',
  'summary',
  'confirmLabel',
  'busyLabel',
]);
const HAS_WORD = /\p{L}{2,}/u;

/**
 * media-sync/no-literal-string: text in JSX (children, and the attributes
 * above, as literals or templates) must come from `t()`, in the spirit of
 * eslint-plugin-i18next's jsx-only mode. Symbols (×, ·) pass.
 */
const noLiteralString = {
  meta: {
    type: 'problem',
    messages: { literal: 'User-facing text "{{text}}": put it in the message catalogs and use t().' },
  },
  create(context) {
    const report = (node, text) =>
      context.report({ node, messageId: 'literal', data: { text: text.trim().slice(0, 40) } });
    const check = (node) => {
      if (!node) return;
      if (node.type === 'Literal' && typeof node.value === 'string' && HAS_WORD.test(node.value))
        report(node, node.value);
      if (node.type === 'TemplateLiteral') {
        const text = node.quasis.map((quasi) => quasi.value.cooked ?? '').join(' ');
        if (HAS_WORD.test(text)) report(node, text);
      }
      if (node.type === 'ConditionalExpression') {
        check(node.consequent);
        check(node.alternate);
      }
      if (node.type === 'LogicalExpression') check(node.right);
    };
    return {
      JSXText(node) {
        if (HAS_WORD.test(node.value)) report(node, node.value);
      },
      JSXExpressionContainer(node) {
        if (node.parent.type === 'JSXElement' || node.parent.type === 'JSXFragment') check(node.expression);
      },
      JSXAttribute(node) {
        const name = node.name.type === 'JSXIdentifier' ? node.name.name : '';
        if (!TEXT_ATTRIBUTES.has(name) || !node.value) return;
        check(node.value.type === 'JSXExpressionContainer' ? node.value.expression : node.value);
      },
    };
  },
};

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
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only.' },
        {
          // `z` is zod's namespace as one object: a bundle that imports it keeps all of zod, its 40 languages of
          // messages too (the CLI's `queue ls` loaded 582 kB of zod instead of 147 kB)
          selector: "ImportDeclaration[importKind='value'][source.value='zod'] > ImportSpecifier[imported.name='z']",
          message: "import * as z from 'zod', so that bundles keep only the parts of zod used.",
        },
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
  {
    files: TRANSLATED_FILES,
    plugins: { 'media-sync': { rules: { 'no-literal-string': noLiteralString } } },
    rules: { 'media-sync/no-literal-string': 'error' },
  },
  {
    files: ['src-main/**/*.ts'],
    plugins: { 'media-sync-layers': { rules: { layers } } },
    rules: { 'media-sync-layers/layers': 'error' },
  },
);
