import js from '@eslint/js'
import skipFormatting from '@vue/eslint-config-prettier/skip-formatting'
import { defineConfig, globalIgnores } from 'eslint/config'
import pluginVue from 'eslint-plugin-vue'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import layers from './lint/layers.js'
import { lengthBudget } from './lint/length-budget.js'
import tableBranches from './lint/table-branches.js'

// The IPC boundary (docs: architecture, "Typed IPC, one contract"). Only these two files may touch
// ipcMain/ipcRenderer; everything else goes through the typed contract in src/shared/ipc.ts.
const IPC_WIRING_FILES = ['src/main/ipc.ts', 'src/preload/index.ts']
// Code that must run without Electron: in the renderer's sandbox, in plain Node (the CLI) or anywhere.
const ELECTRON_FREE_FILES = ['src/shared/**', 'src/node/**', 'src/renderer/**', 'src/cli/**']

const IPC_MESSAGE =
  'Only src/main/ipc.ts and src/preload/index.ts use ipcMain/ipcRenderer: add a channel to src/shared/ipc.ts instead.'
const NO_ELECTRON_MESSAGE =
  'src/shared, src/node, src/renderer and src/cli run without Electron: go through window.api or a port instead.'
const IPC_NAMES = /^ipc(Main|Renderer)$/.source
// `/` cannot appear in an esquery regex, hence \x2F.
const ELECTRON_MODULE = String.raw`^electron(\x2F|$)`

const ipcImports = ['electron', 'electron/main', 'electron/renderer', 'electron/common'].map((name) => ({
  name,
  importNames: ['ipcMain', 'ipcRenderer'],
  message: IPC_MESSAGE,
}))
// Also `electron.ipcMain`, `electron['ipcRenderer']` and `const { ipcMain } = electron`.
const ipcSyntax = [
  { selector: `MemberExpression[property.name=/${IPC_NAMES}/]`, message: IPC_MESSAGE },
  { selector: `MemberExpression[property.value=/${IPC_NAMES}/]`, message: IPC_MESSAGE },
  { selector: `ObjectPattern > Property[key.name=/${IPC_NAMES}/]`, message: IPC_MESSAGE },
]
const noElectronSyntax = [
  { selector: `ImportExpression[source.value=/${ELECTRON_MODULE}/]`, message: NO_ELECTRON_MESSAGE },
  {
    selector: `CallExpression[callee.name='require'][arguments.0.value=/${ELECTRON_MODULE}/]`,
    message: NO_ELECTRON_MESSAGE,
  },
]

export default defineConfig(
  globalIgnores([
    'out/',
    'dist/',
    'node_modules/',
    '.tools/',
    'test-results/',
    'playwright-report/',
    'coverage/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,
  pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'], sourceType: 'module' },
    },
    rules: {
      // TypeScript checks names; `no-undef` knows neither types nor the compiler macros.
      'no-undef': 'off',
      // The build leaves Vue's Options API out (electron.vite.config.ts): a component written with
      // it would lose its options without a word.
      'vue/component-api-style': ['error', ['script-setup']],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  // Where code runs decides which globals exist.
  {
    files: [
      'src/main/**',
      'src/cli/**',
      'bin/**',
      'bench/**',
      'scripts/**',
      'lint/**',
      'test/**',
      '*.config.{js,ts,mjs}',
    ],
    languageOptions: { globals: globals.node },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
  { files: ['src/preload/**'], languageOptions: { globals: { ...globals.browser, ...globals.node } } },
  { files: ['src/renderer/**'], languageOptions: { globals: globals.browser } },
  { files: ['src/shared/**'], languageOptions: { globals: globals['shared-node-browser'] } },

  // The boundaries. ESLint replaces a rule's options block by block, so each block below restates
  // the whole list: extend these lists rather than configuring the same rules elsewhere.
  {
    rules: {
      'no-restricted-imports': ['error', { paths: ipcImports }],
      'no-restricted-syntax': ['error', ...ipcSyntax],
    },
  },
  {
    files: ELECTRON_FREE_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: ELECTRON_MODULE, message: NO_ELECTRON_MESSAGE }] },
      ],
      'no-restricted-syntax': ['error', ...ipcSyntax, ...noElectronSyntax],
    },
  },
  {
    files: IPC_WIRING_FILES,
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },

  // Which layer may import which (lint/layers.js holds the table), and no branch on what a table
  // holds (kinds of draft and of destination, operations: lint/table-branches.js).
  {
    files: ['src/**'],
    plugins: { 'catalog-desk': { rules: { ...layers.rules, ...tableBranches.rules } } },
    rules: { 'catalog-desk/layers': 'error', 'catalog-desk/table-branches': 'error' },
  },

  // 80 lines of code a function, 400 lines a .vue file, and what is over it today, each with its
  // reason (lint/length-budget.js).
  ...lengthBudget,

  // Last: turns off every rule that is Prettier's business.
  skipFormatting,
)
