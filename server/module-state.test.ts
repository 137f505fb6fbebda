import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * State has an owner: nothing mutable lives at module level in server/ (caches, queues, counters,
 * registries); buildApp creates it and passes it down through the context. The rule, checked on the
 * syntax of every non-test module:
 * - no module-level `let` or `var`;
 * - no module-level `const` holding a new Map, Set, WeakMap, WeakSet, Array, LRUCache or Lru, nor an
 *   empty `[]` or `{}` (containers made to be filled), unless its declared type is read-only
 *   (ReadonlySet, ReadonlyMap, ReadonlyArray, `readonly T[]`);
 * - no static class property that is not `readonly`.
 * Frozen constants (regexes, non-empty literals, read-only sets) pass.
 */

/** The one exception: app.ts parses openapi.yaml once, lazily; the same text gives the same contract, so it is a constant, not state. */
const ALLOWED = new Set<string>(['server/app.ts: let contract']);

const CONTAINERS: ReadonlySet<string> = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'LRUCache', 'Lru']);

function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isParenthesizedExpression(current) || ts.isTypeAssertionExpression(current)) {
    current = current.expression;
  }
  return current;
}

function isReadonlyType(type: ts.TypeNode | undefined): boolean {
  if (!type) return false;
  if (ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword) return true;
  return ts.isTypeReferenceNode(type) && ['ReadonlySet', 'ReadonlyMap', 'ReadonlyArray'].includes(type.typeName.getText());
}

/** What holds mutable state in a module's source, as `<let|var|const|static> <name>` (empty: nothing). */
export function moduleState(source: string, fileName = 'module.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement)) {
      const flags = statement.declarationList.flags;
      const kind = flags & ts.NodeFlags.Let ? 'let' : flags & ts.NodeFlags.Const ? 'const' : 'var';
      for (const declaration of statement.declarationList.declarations) {
        const name = declaration.name.getText(file);
        if (kind !== 'const') {
          found.push(`${kind} ${name}`);
          continue;
        }
        if (!declaration.initializer || isReadonlyType(declaration.type)) continue;
        const value = unwrap(declaration.initializer);
        const container = ts.isNewExpression(value) && CONTAINERS.has(value.expression.getText(file));
        const empty = (ts.isArrayLiteralExpression(value) && value.elements.length === 0) || (ts.isObjectLiteralExpression(value) && value.properties.length === 0);
        if (container || empty) found.push(`const ${name}`);
      }
    }
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        if (!ts.isPropertyDeclaration(member)) continue;
        const modifiers = ts.getModifiers(member) ?? [];
        const isStatic = modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        const isReadonly = modifiers.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
        if (isStatic && !isReadonly) found.push(`static ${statement.name?.getText(file) ?? 'class'}.${member.name.getText(file)}`);
      }
    }
  }
  return found;
}

const root = path.resolve(import.meta.dirname, '..');

function serverModules(dir = path.join(root, 'server')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverModules(full);
    // test code may keep what it likes: *.test.ts and the test helpers (*.test-support.ts)
    return entry.name.endsWith('.ts') && !/\.test(-support)?\.ts$|\.d\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('no mutable state at module level in server/', () => {
  it('the rule finds module-level let, var, containers and static fields, and passes constants', () => {
    expect(moduleState('let cache = new Map();')).toEqual(['let cache']);
    expect(moduleState('export var count = 0;')).toEqual(['var count']);
    expect(moduleState('const cache = new Map<string, number>();')).toEqual(['const cache']);
    expect(moduleState('const seen = new WeakMap() as WeakMap<object, number>;')).toEqual(['const seen']);
    expect(moduleState("import { LRUCache } from 'lru-cache';\nconst lru = new LRUCache({ max: 10 });")).toEqual(['const lru']);
    expect(moduleState('const queue: string[] = [];\nconst byKey: Record<string, number> = {};')).toEqual(['const queue', 'const byKey']);
    expect(moduleState('class Pool { static free = []; static readonly SIZE = 4; }')).toEqual(['static Pool.free']);
    expect(moduleState("const NAMES: ReadonlySet<string> = new Set(['a']);\nconst LIST: readonly number[] = [];")).toEqual([]);
    expect(moduleState("const RE = /^x$/;\nconst TITLES = { 404: 'Not Found' };\nconst LIMIT = 10;")).toEqual([]);
    expect(moduleState('export function f() { let n = 0; const m = new Map(); return [n, m]; }')).toEqual([]);
  });

  it('no module of the server holds any', () => {
    const files = serverModules();
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) => {
      const name = path.relative(root, file).split(path.sep).join('/');
      return moduleState(fs.readFileSync(file, 'utf8'), file)
        .map((what) => `${name}: ${what}`)
        .filter((entry) => !ALLOWED.has(entry));
    });
    expect(offenders).toEqual([]);
  });
});
