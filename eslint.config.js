// ESLint flat config for the whole monorepo (run from the root: `npx eslint .`, or the `lint`
// stage of `npm test`). Three jobs:
//   1. Correctness: @eslint/js + typescript-eslint recommended everywhere, react-hooks and
//      jsx-a11y recommended for the front ends.
//   2. Boundaries between the apps (eslint-plugin-boundaries), so that what the READMEs say about
//      who may import whom fails the build when broken. The areas and the policies are below;
//      test/eslint-boundaries.test.ts proves each policy with a file that breaks it.
//   3. Nothing about layout: Prettier formats, eslint-config-prettier turns off the rules that
//      would fight it.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const FRONT_END_SOURCES = ['shell/src/**', 'mf-*/src/**', 'packages/state/src/**'];

/**
 * The areas of the repository, as boundaries "elements", each matched by its top folder: every
 * `mf-*` folder is one `remote` element of its own, so an import inside one remote is internal
 * (never checked) while an import from another remote is a dependency between two elements.
 * A new area (a new package or remote) needs a line here; an unlisted folder is not checked.
 */
const ELEMENTS = [
  { type: 'shell', pattern: 'shell' },
  { type: 'remote', pattern: 'mf-*' },
  { type: 'contract', pattern: 'packages/contract' },
  { type: 'state', pattern: 'packages/state' },
  { type: 'web-shared', pattern: 'packages/web-shared' },
  { type: 'web-server', pattern: 'packages/web-server' },
  { type: 'web-build', pattern: 'packages/web-build' },
  { type: 'release-registry', pattern: 'packages/release-registry' },
  { type: 'api', pattern: 'api' },
  { type: 'dev-services', pattern: 'dev-services' },
  { type: 'e2e', pattern: 'e2e' },
  { type: 'scripts', pattern: 'scripts' },
];

/** Files that are tests or tooling: the only ones that may start the development services. */
const TEST_AND_SCRIPT_FILES = ['**/*.test.{ts,tsx}', '**/test/**', '**/scripts/**', '**/bench/**', 'e2e/**', '**/vitest.config.ts'];

/**
 * Files of the front ends that run in Node.js, not in the browser: each app's build configuration
 * and its server start script.
 */
const FRONT_END_NODE_FILES = ['{shell,mf-*}/rspack.config.ts', '{shell,mf-*}/serve.ts'];

const FRONT_END_TYPES = ['shell', 'remote', 'state'];

/** Code that runs in the browser (and so may be server-rendered): the apps and what they share. */
const BROWSER_TYPES = [...FRONT_END_TYPES, 'web-shared'];

/** Our Node.js-only packages: the front ends' server, their build configuration, the release registry. */
const NODE_PACKAGE_TYPES = ['web-server', 'web-build', 'release-registry'];

/** Every area of ours but the contract: what the contract may not import. */
const ALL_BUT_CONTRACT = ELEMENTS.map((element) => element.type).filter((type) => type !== 'contract');

/**
 * The contract's root entry (the TypeBox schemas): a front end takes only types from it. Values
 * come from '@boatshop/contract/constants' and '/client', which carry no TypeBox; a schema for
 * `Value.Check` from '@boatshop/contract/schemas/<area>', deliberately.
 */
const CONTRACT_ROOT = ['@boatshop/contract', '+(../)packages/contract{,/src,/src/index,/src/index.js,/src/index.ts}'];

export default defineConfig(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.data/**',
      '**/coverage/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      '**/@mf-types/**',
      '**/*.d.ts',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },

  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names are the house way of saying "unused on purpose".
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `let server; … server = await start()` read first inside a callback declared earlier is
      // not a constant waiting to happen: it cannot be declared `const` before it exists.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },

  // Globals: browser code in the front ends, Node everywhere else (servers, build configs, tests).
  { files: ['**/*.{js,mjs,cjs,ts,tsx}'], languageOptions: { globals: { ...globals.node } } },
  { files: FRONT_END_SOURCES, languageOptions: { globals: { ...globals.browser } } },

  // React: the hooks rules (with the React Compiler's) and accessibility, in the front ends only
  // (Playwright's fixtures also call a function named `use`, which is not React's).
  { files: FRONT_END_SOURCES, ...reactHooks.configs.flat['recommended-latest'] },
  { files: FRONT_END_SOURCES, ...jsxA11y.flatConfigs.recommended },
  {
    files: FRONT_END_SOURCES,
    rules: {
      // A scrolling region (a wide table) must be focusable so that keyboard users can scroll it
      // (WCAG 2.1.1; axe's scrollable-region-focusable): allowed on role="region" as well.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true }],
    },
  },

  // Migrations run against whatever schema came before them, never the app's `Database` type:
  // the house rule is `Kysely<any>` there (and in the migrator that runs them).
  {
    files: ['api/src/db/migrations/**', 'api/src/db/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // Browser code and the browser-safe shared package use no Node.js built-in module (tests run in
  // Node.js and may).
  {
    files: [...FRONT_END_SOURCES, 'packages/web-shared/src/**'],
    ignores: TEST_AND_SCRIPT_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(node:.*|${builtinModules.filter((name) => !name.startsWith('_')).join('|')})(/.*)?$`,
              message: 'Browser code uses no Node.js built-in module.',
            },
          ],
        },
      ],
    },
  },

  // Playwright requires a fixture's first parameter to be a destructuring pattern, even if empty.
  { files: ['e2e/**'], rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] } },
  // The shared MF runtime's helpers must be the CommonJS files the runtime itself requires, so the
  // shell ships one copy of each (packages/web-shared/src/shared-runtime.ts).
  {
    files: [
      'packages/web-build/src/provide-runtime-plugin.js',
      'packages/web-build/src/mf-runtime-standalone.cjs',
      'packages/web-build/src/remote-bundler-runtime.cjs',
    ],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // Boundaries between the apps.
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/files': [
        { category: 'test-or-script', pattern: TEST_AND_SCRIPT_FILES },
        { category: 'node-entry', pattern: FRONT_END_NODE_FILES },
      ],
      'boundaries/include': ['**/*.{js,mjs,cjs,ts,tsx}'],
      'boundaries/legacy-templates': false,
      // `.js` specifiers that name `.ts` files, workspace packages through their real paths.
      'import/resolver': {
        typescript: { alwaysTryTypes: true, noWarnOnMultipleProjects: true, project: ['*/tsconfig.json', 'packages/*/tsconfig.json'] },
      },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'remote' } },
              disallow: { to: { element: { types: { anyOf: ['remote', 'shell'] } } } },
              message: 'A remote imports neither another remote nor the shell: share through @boatshop/state or the API contract.',
            },
            {
              from: { element: { type: 'shell' } },
              disallow: { to: { element: { type: 'remote' } } },
              message: 'The shell imports no remote source: remotes are loaded at runtime through Module Federation.',
            },
            {
              from: { element: { type: 'api' } },
              disallow: { to: { element: { types: { anyOf: FRONT_END_TYPES } } } },
              message: 'The API imports no front-end code (shell, mf-*, packages/state).',
            },
            {
              from: { element: { types: { anyOf: FRONT_END_TYPES } } },
              disallow: { to: { element: { type: 'api' } } },
              message: 'Front ends import no API source: take shapes from the contract package.',
            },
            {
              from: { element: { type: 'contract' } },
              disallow: { to: { element: { types: { anyOf: ALL_BUT_CONTRACT } } } },
              message: 'The contract imports nothing of ours: every app depends on it, not the other way round.',
            },
            {
              from: { element: { types: { anyOf: FRONT_END_TYPES } } },
              disallow: { to: { element: { type: 'contract' } }, dependency: { kind: 'value', source: CONTRACT_ROOT } },
              message:
                "Front ends take only types from '@boatshop/contract' (import type): constants from '@boatshop/contract/constants', the client from '@boatshop/contract/client'.",
            },
            {
              from: { element: { type: 'state' } },
              disallow: { to: { element: { types: { anyOf: ['shell', 'remote'] } } } },
              message: 'The shared core imports no app: every app depends on it, not the other way round.',
            },
            {
              from: { element: { types: { anyOf: BROWSER_TYPES } } },
              disallow: { to: { element: { types: { anyOf: NODE_PACKAGE_TYPES } } } },
              message:
                'Browser code imports no Node.js package (web-server, web-build, release-registry): share shapes and pure functions through @boatshop/web-shared.',
            },
            {
              from: { element: { types: { anyOf: NODE_PACKAGE_TYPES } } },
              disallow: { to: { element: { types: { anyOf: FRONT_END_TYPES } } } },
              message: 'Node.js packages import no front-end code (shell, mf-*, packages/state): share through @boatshop/web-shared.',
            },
            {
              from: { element: { type: 'web-shared' } },
              disallow: { to: { element: { types: { anyOf: ALL_BUT_CONTRACT.filter((type) => type !== 'web-shared') } } } },
              message:
                'The browser-safe shared package imports nothing of ours but the contract: the shell, the remotes and the servers all depend on it.',
            },
            // A later policy wins over an earlier one: an app's build configuration and server
            // start script run in Node.js, and so do tests and scripts.
            {
              from: { file: { categories: { anyOf: ['test-or-script', 'node-entry'] } } },
              allow: { to: { element: { types: { anyOf: NODE_PACKAGE_TYPES } } } },
            },
            {
              from: [{ element: { types: { anyOf: NODE_PACKAGE_TYPES } }, file: { categories: 'test-or-script' } }],
              allow: { to: { element: { types: { anyOf: FRONT_END_TYPES } } } },
            },
            {
              disallow: { to: { element: { type: 'dev-services' } } },
              message: 'The development services (local OIDC, SMTP, payment stand-ins) are for tests and scripts only.',
            },
            // A later policy wins over an earlier one: tests and scripts may start them.
            {
              from: { file: { categories: 'test-or-script' } },
              allow: { to: { element: { type: 'dev-services' } } },
            },
          ],
        },
      ],
    },
  },

  prettier,
);
