// The import rules of docs/ARCHITECTURE.md, enforced: `npm run lint:code` (eslint .).
// This config is about architecture (which folder may import which), not style.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Test code: suites, their support files and the harnesses under tests/. */
const TEST_FILES = ['tests/**', '**/*.test.ts', '**/*.test.tsx', '**/*.test-support.ts'];

// ---- file names -----------------------------------------------------------------------------

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Route files: TanStack Router's own markers (`__root`, `_auth` pathless layout, `$id` parameter). */
const ROUTE_SEGMENT = /^(?:__root|_[a-z0-9]+(?:-[a-z0-9]+)*|\$[a-z][a-zA-Z0-9]*)$/;
/** Migrations start with their UTC timestamp (`2026-11-21T1000-accounts.ts`). */
const MIGRATION_PREFIX = /^\d{4}-\d{2}-\d{2}T\d{4}-/;
/**
 * The one name that is not kebab-case: the file route of '/Forbidden' (SPEC.md §2 fixes the
 * path, and a file route's name is its path).
 */
const NAME_EXCEPTIONS = new Set(['src/routes/Forbidden.tsx']);
/** Test files end in `.test.ts` / `.test.tsx`; no `.spec.`, `_test`, `.tests.`. */
const OTHER_TEST_SUFFIX = /(?:^|[.\-_])(?:spec|specs|tests?)$/;

const fileNames = {
  meta: {
    type: 'problem',
    docs: { description: 'File names are kebab-case; tests end in .test.ts(x)' },
    messages: {
      kebab: "File name '{{name}}' is not kebab-case (segments of a-z, 0-9 and '-', separated by '.').",
      testSuffix: "Test file '{{name}}': the one test suffix is '.test.ts' / '.test.tsx'.",
    },
    schema: [],
  },
  create(context) {
    return {
      Program(node) {
        const relative = path.relative(root, context.physicalFilename).split(path.sep).join('/');
        if (NAME_EXCEPTIONS.has(relative)) return;
        const name = path.basename(relative);
        const inRoutes = relative.startsWith('src/routes/');
        const segments = name.replace(MIGRATION_PREFIX, 'migration-').split('.').slice(0, -1);
        const stem = segments.filter((segment) => segment !== 'test' && segment !== 'test-support');
        if (segments.some((segment, i) => segment !== 'test' && OTHER_TEST_SUFFIX.test(segment) && i > 0)) {
          context.report({ node, messageId: 'testSuffix', data: { name } });
        } else if (!stem.every((segment) => KEBAB.test(segment) || (inRoutes && ROUTE_SEGMENT.test(segment)))) {
          context.report({ node, messageId: 'kebab', data: { name } });
        }
      },
    };
  },
};

// ---- import zones ---------------------------------------------------------------------------

const features = fs
  .readdirSync(path.join(root, 'src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Zones for every file, tests included. */
const everywhere = [
  // A feature never reaches into another feature: what two features share moves to src/lib or src/components.
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature never imports another feature: move what both need to src/lib or src/components.',
  })),
  {
    target: ['./src/components', './src/lib'],
    from: './src/features',
    message: 'src/components and src/lib are shared by the features: they never import a feature.',
  },
  { target: './src', from: './server', message: 'The browser code never imports the server (only contract/ is shared).' },
];

/** Zones for production code only (tests may render src/ from machines/ or use tests/utils from server/). */
const productionOnly = [
  {
    target: './machines',
    from: ['./src', './server', './tests'],
    message: 'machines/ import only xstate and, type-only, contract/.',
  },
  {
    target: './server',
    from: ['./src', './machines', './tests'],
    message: 'The server never imports the browser code, the machines or the tests.',
  },
  { target: '.', from: './tests', message: 'Production code never imports test code.' },
  {
    target: '.',
    from: ['**/*.test.ts', '**/*.test.tsx', '**/*.test-support.ts'],
    message: 'Production code never imports test code.',
  },
];

const restrictedPaths = (zones) => ['error', { basePath: root, zones }];

export default defineConfig([
  {
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'data/**', '.tmp/**', '**/*.gen.ts', '**/*.scratch.ts'],
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin, tao: { rules: { 'file-names': fileNames } } },
    settings: {
      // Parse .ts/.tsx when following imports (no-cycle), as import-x's typescript preset does.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Imports name their file with its extension (`./client.ts`); tsconfig.json resolves them.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(root, 'tsconfig.json') })],
    },
    rules: {
      'tao/file-names': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': restrictedPaths(everywhere),
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: TEST_FILES,
    rules: {
      'import-x/no-restricted-paths': restrictedPaths([...everywhere, ...productionOnly]),
    },
  },
  {
    // A machine knows no React, no fetch, no URL: only xstate, its own folder's files and the contract's types.
    files: ['machines/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!xstate(?:/|$)|\\.)', message: 'machines/ import only xstate (and contract/ types).' },
            { group: ['**/contract/**'], allowTypeImports: true, message: 'machines/ import contract/ with `import type` only.' },
          ],
        },
      ],
    },
  },
]);
