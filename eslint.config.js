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
 * The one name that is not kebab-case: the file route of '/Forbidden' (R-GEN-6 fixes the
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

// ---- server modules keep to their rooms (docs/decisions/0095) ----------------------------------

const modulesDir = path.join(root, 'server/modules');
const modules = fs
  .readdirSync(modulesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** Besides its `*.service.ts` files, what a module offers the others: pure helpers that touch no table. */
const PUBLIC_HELPERS = { videos: ['dates.ts'] };
const publicFilesOf = (module) => [
  ...fs.readdirSync(path.join(modulesDir, module)).filter((file) => file.endsWith('.service.ts')),
  ...(PUBLIC_HELPERS[module] ?? []),
];

/** A module imports another only through that module's services, never its repository, routes or internals. */
const moduleZones = modules.map((module) => ({
  target: `./server/modules/${module}`,
  from: './server/modules',
  except: [`./${module}`, ...modules.filter((other) => other !== module).flatMap((other) => publicFilesOf(other).map((file) => `./${other}/${file}`))],
  message: "A module uses another only through its services (*.service.ts), never its repository, routes or internals.",
}));

/** The tables each module owns: only its own files name them in a query. */
const TABLES_OF = {
  accounts: ['users', 'invitations', 'login_failures', 'pending_logins', 'ended_sessions'],
  videos: ['videos', 'video_tags', 'video_user_states', 'view_events', 'videos_fts', 'video_search', 'video_cues', 'cues_fts'],
  etiquetas: ['tags'],
  uploads: ['uploads'],
  statistics: ['organization_views', 'view_counts_hourly'],
  audit: ['audit_log'],
  subtitulos: ['video_subtitles'],
};
/** Another module's tables a file names in its queries: each a sharing ADR 0095 explains. */
const SHARED_TABLES = {
  'statistics/statistics.repository.ts': ['videos', 'users', 'view_events'],
  'statistics/generate.ts': ['users', 'videos', 'video_user_states', 'view_events'],
  'uploads/uploads.repository.ts': ['videos'],
  'videos/videos.repository.ts': ['users', 'tags'],
};
const ownerOf = new Map(Object.entries(TABLES_OF).flatMap(([module, tables]) => tables.map((table) => [table, module])));
const QUERY_BUILDERS = new Set(['selectFrom', 'insertInto', 'replaceInto', 'updateTable', 'deleteFrom', 'mergeInto', 'innerJoin', 'leftJoin', 'rightJoin', 'fullJoin']);
const SQL_TABLE = /\b(?:from|join|into|update|table)\s+([a-z_][a-z0-9_]*)/gi;

const moduleTables = {
  meta: {
    type: 'problem',
    docs: { description: "A module's queries name only its own tables, and the shared ones ADR 0095 lists" },
    messages: {
      foreign: "'{{table}}' is a table of the {{owner}} module: call its service, or record the sharing in ADR 0095 and SHARED_TABLES.",
    },
    schema: [],
  },
  create(context) {
    const relative = path.relative(modulesDir, context.physicalFilename).split(path.sep).join('/');
    const module = relative.split('/')[0];
    if (relative.startsWith('..') || !relative.includes('/')) return {};
    const allowed = new Set([...(TABLES_OF[module] ?? []), ...(SHARED_TABLES[relative] ?? [])]);
    const check = (node, name) => {
      const table = name.trim().split(/\s+/)[0];
      const owner = ownerOf.get(table);
      if (owner && !allowed.has(table)) context.report({ node, messageId: 'foreign', data: { table, owner } });
    };
    return {
      CallExpression(node) {
        const callee = node.callee.type === 'MemberExpression' ? node.callee.property : node.callee;
        if (callee.type !== 'Identifier' || !QUERY_BUILDERS.has(callee.name)) return;
        const first = node.arguments[0];
        const names = first?.type === 'ArrayExpression' ? first.elements : [first];
        for (const element of names) if (element?.type === 'Literal' && typeof element.value === 'string') check(element, element.value);
      },
      TaggedTemplateExpression(node) {
        if (node.tag.type !== 'Identifier' || node.tag.name !== 'sql') return;
        for (const quasi of node.quasi.quasis) for (const match of quasi.value.cooked.matchAll(SQL_TABLE)) check(quasi, match[1].toLowerCase());
      },
    };
  },
};

const restrictedPaths = (zones) => ['error', { basePath: root, zones }];

export default defineConfig([
  {
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'data/**', '.tmp/**', '**/*.gen.ts', '**/*.scratch.ts'],
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin, tao: { rules: { 'file-names': fileNames, 'module-tables': moduleTables } } },
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
      'import-x/no-restricted-paths': restrictedPaths([...everywhere, ...productionOnly, ...moduleZones]),
    },
  },
  {
    // Tests build their worlds with any module's repository; production code keeps to its rooms.
    files: ['server/modules/**/*.ts'],
    ignores: TEST_FILES,
    rules: { 'tao/module-tables': 'error' },
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
