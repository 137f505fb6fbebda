import fc from 'fast-check';
import type { Schema } from '../../server/openapi/contract.ts';

/**
 * fast-check arbitraries derived from the JSON Schemas of openapi.yaml (as loadContract gives them,
 * $refs resolved), for the subset the contract uses: const, enum, type (also as a list), pattern,
 * minimum/maximum, minLength/maxLength, items, minItems/maxItems, uniqueItems, properties, required,
 * additionalProperties, oneOf/anyOf. And the mutations the schema fuzzing sends: wrong types, nulls,
 * extra and missing fields, huge, odd and hostile strings, JSON Patch operations and paths that do
 * not exist, broken JSON.
 */

/** Text that has broken servers before: emoji (also joined and flagged), right-to-left, combining marks, controls, NUL, lone surrogates, markup, traversal. */
export const HOSTILE_TEXTS = [
  '😀',
  '👩‍👩‍👧‍👦',
  '🇪🇸',
  '\u202Eevil\u202C',
  '\u200F',
  'שלום',
  'مرحبا',
  'e\u0301\u0301\u0301',
  'Z̤̺̦͔̰͉̓͋̑ͫͯ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0007\b\u001b[31m',
  '\u007f',
  '\r\n',
  '\u2028\u2029',
  '\uFEFF',
  '\uFFFD',
  '\uD83D',
  '\uDE00x',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR '1'='1",
  '"; drop table users; --',
  '\\',
  '%00',
  '%2e%2e%2f',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '${7*7}',
  '{{7*7}}',
  '=cmd|\' /C calc\'!A0',
  '*',
  'NEAR(a b)',
  '" OR "a"',
  ' ',
  '',
] as const;

/** One character of generated text: mostly ASCII, sometimes any Unicode grapheme, sometimes hostile. */
export const textUnit: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_TEXTS.filter((t) => t.length > 0)) },
);

/** Code points, as Ajv counts minLength and maxLength. */
export const codePoints = (s: string) => [...s].length;

const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = num(schema.minLength) ?? 0;
  const max = num(schema.maxLength);
  const fits = (s: string) => codePoints(s) >= min && (max === undefined || codePoints(s) <= max);
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits);
  return fc.string({ unit: textUnit, minLength: min, maxLength: Math.max(min, Math.min(max ?? 40, 60)) }).filter(fits);
}

/** Values the schema describes (valid ones, but for the few keywords the generator does not know, e.g. a `format` without a `pattern`). */
export function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (branches) {
    const { oneOf: _o, anyOf: _a, discriminator: _d, ...parent } = schema;
    return fc.oneof(...branches.map((branch) => arbitraryOf({ ...parent, ...branch })));
  }
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => arbitraryOf({ ...schema, type: t })));
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = num(schema.minimum) ?? -(2 ** 31);
      const max = num(schema.maximum) ?? 2 ** 31 - 1;
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case 'number': {
      const min = num(schema.minimum) ?? -1e9;
      const max = num(schema.maximum) ?? 1e9;
      return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, 2 ** 31)) }));
    }
    case 'string':
      return stringOf(schema);
    case 'array': {
      const items = arbitraryOf((schema.items as Schema | undefined) ?? {});
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.min(num(schema.maxItems) ?? 6, 12);
      return schema.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = ((schema.required ?? []) as string[]).filter((k) => k in properties);
      if (Object.keys(properties).length === 0) return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      return fc.record(Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, arbitraryOf(s)])), { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ── mutations ─────────────────────────────────────────────────────────────────────────────────────

type Path = Array<string | number>;

function nodesOf(value: unknown, path: Path = []): Array<{ path: Path; value: unknown }> {
  const here = [{ path, value }];
  if (Array.isArray(value)) return here.concat(value.flatMap((v, i) => nodesOf(v, [...path, i])));
  if (value && typeof value === 'object') return here.concat(Object.entries(value).flatMap(([k, v]) => nodesOf(v, [...path, k])));
  return here;
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A copy of `root` with the node at `path` replaced (or, with `remove`, deleted). */
function changedAt(root: unknown, path: Path, replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const copy = clone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (typeof last === 'string' && last === '__proto__') {
    Object.defineProperty(parent, last, { value: replacement, enumerable: true, configurable: true, writable: true });
  } else {
    parent[last] = replacement;
  }
  return copy;
}

const WRONG_VALUES: unknown[] = [0, -1, 1.5, 2 ** 53, -(2 ** 31) - 1, true, false, null, '', 'text', '1', 'true', [], [null], {}, { a: 1 }, [[[]]]];
const EXTRA_KEYS = ['extra', '__proto__', 'constructor', 'prototype', 'id', 'role', 'rol', 'isAdmin', '$where', '', '😀', 'a\u0000b'];
const PATCH_OPS: unknown[] = ['add', 'remove', 'move', 'copy', 'test', 'REPLACE', 'replace ', '', '_get', null, 1, ['replace']];
const PATCH_PATHS: unknown[] = [
  '/id',
  '/nombre/0',
  '/../../etc/passwd',
  '',
  '/',
  '/~1',
  '/titulo~0',
  '/__proto__',
  '/constructor/prototype',
  '/isVisible/',
  '/ISVISIBLE',
  '/rol/0',
  '%2e%2e%2f',
  '/titulo\u0000',
  '/token_version',
  '/password_hash',
  null,
  7,
];
/** 1 MB of text, and 1.2 MB of emoji (over the body limit once encoded). */
const HUGE_TEXTS = ['x'.repeat(1_000_000), '😀'.repeat(300_000), `${' '.repeat(500_000)}a${' '.repeat(500_000)}`];

const MUTATIONS = ['wrong-type', 'null', 'extra-field', 'missing-field', 'hostile-text', 'huge-text', 'patch-op', 'patch-path', 'empty', 'duplicated-item'] as const;
export type Mutation = (typeof MUTATIONS)[number];

export interface Mutant {
  value: unknown;
  mutation: string;
}

function mutate(value: unknown, kind: Mutation, pick: number, choice: number): Mutant {
  const nodes = nodesOf(value);
  const at = <T>(list: T[]) => list[pick % list.length]!;
  const from = <T>(list: readonly T[]) => list[choice % list.length]!;
  const where = (path: Path) => `/${path.join('/')}`;
  switch (kind) {
    case 'wrong-type':
    case 'null': {
      const node = at(nodes);
      const wrong = WRONG_VALUES.filter((w) => typeof w !== typeof node.value || Array.isArray(w) !== Array.isArray(node.value) || (w === null) !== (node.value === null));
      const replacement = kind === 'null' ? null : from(wrong);
      return { value: changedAt(value, node.path, replacement), mutation: `${kind} at ${where(node.path)}: ${JSON.stringify(replacement)}` };
    }
    case 'extra-field': {
      const objects = nodes.filter((n) => n.value && typeof n.value === 'object' && !Array.isArray(n.value));
      if (objects.length === 0) return mutate(value, 'wrong-type', pick, choice);
      const node = at(objects);
      const key = from(EXTRA_KEYS);
      return { value: changedAt(value, [...node.path, key], from(WRONG_VALUES)), mutation: `extra field ${JSON.stringify(key)} at ${where(node.path)}` };
    }
    case 'missing-field': {
      const members = nodes.filter((n) => n.path.length > 0);
      if (members.length === 0) return { value: undefined, mutation: 'no body' };
      const node = at(members);
      return { value: changedAt(value, node.path, undefined, true), mutation: `missing ${where(node.path)}` };
    }
    case 'hostile-text':
    case 'huge-text': {
      const strings = nodes.filter((n) => typeof n.value === 'string');
      const node = at(strings.length > 0 ? strings : nodes);
      const text = kind === 'huge-text' ? from(HUGE_TEXTS) : from(HOSTILE_TEXTS);
      return { value: changedAt(value, node.path, text), mutation: `${kind} at ${where(node.path)}` };
    }
    case 'patch-op':
    case 'patch-path': {
      const operations = nodes.filter((n) => n.value && typeof n.value === 'object' && 'op' in (n.value as object));
      if (operations.length === 0) return mutate(value, 'extra-field', pick, choice);
      const node = at(operations);
      const key = kind === 'patch-op' ? 'op' : 'path';
      const replacement = from(kind === 'patch-op' ? PATCH_OPS : PATCH_PATHS);
      return { value: changedAt(value, [...node.path, key], replacement), mutation: `${kind} ${JSON.stringify(replacement)} at ${where(node.path)}` };
    }
    case 'empty': {
      const node = at(nodes);
      const replacement = Array.isArray(node.value) ? [] : typeof node.value === 'string' ? '' : {};
      return { value: changedAt(value, node.path, replacement), mutation: `emptied ${where(node.path)}` };
    }
    case 'duplicated-item': {
      const arrays = nodes.filter((n) => Array.isArray(n.value) && (n.value as unknown[]).length > 0);
      if (arrays.length === 0) return mutate(value, 'wrong-type', pick, choice);
      const node = at(arrays);
      const list = node.value as unknown[];
      return { value: changedAt(value, node.path, [...list, ...list, ...list]), mutation: `items repeated at ${where(node.path)}` };
    }
  }
}

/** A value of the schema with one mutation applied (usually, not always, invalid: the caller asks a validator). */
export function mutantOf(schema: Schema): fc.Arbitrary<Mutant> {
  return fc
    .tuple(arbitraryOf(schema), fc.constantFrom(...MUTATIONS), fc.nat(), fc.nat())
    .map(([value, kind, pick, choice]) => mutate(value, kind, pick, choice));
}

// ── JSON text ─────────────────────────────────────────────────────────────────────────────────────

const BREAKS = ['truncated', 'trailing garbage', 'byte order mark', 'single quotes', 'duplicate key', 'prototype pollution', 'deep nesting', 'invalid UTF-8', 'empty', 'NaN', 'comment', 'bare string'] as const;

/** JSON text of a value, broken in one of the ways clients and attackers break it (some of which still parse). */
export function brokenJsonOf(value: fc.Arbitrary<unknown>): fc.Arbitrary<{ payload: string | Buffer; mutation: string }> {
  return fc.tuple(value, fc.constantFrom(...BREAKS), fc.nat()).map(([v, kind, n]) => {
    const text = JSON.stringify(v) ?? 'null';
    const payload: string | Buffer = (() => {
      switch (kind) {
        case 'truncated':
          return text.slice(0, n % Math.max(1, text.length));
        case 'trailing garbage':
          return `${text}}{"x":`;
        case 'byte order mark':
          return `\uFEFF${text}`;
        case 'single quotes':
          return text.replace(/"/g, "'");
        case 'duplicate key':
          return text.startsWith('{') && text.length > 2 ? `{"op":"add",${text.slice(1)}` : `{"a":1,"a":2}`;
        case 'prototype pollution':
          return text.startsWith('{') && text.length > 2 ? `{"__proto__":{"isAdmin":true},${text.slice(1)}` : `[{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}]`;
        case 'deep nesting':
          return `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
        case 'invalid UTF-8':
          return Buffer.concat([Buffer.from(text.slice(0, Math.floor(text.length / 2))), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from(text.slice(Math.floor(text.length / 2)))]);
        case 'empty':
          return '';
        case 'NaN':
          return text.replace(/\d+(\.\d+)?/, 'NaN');
        case 'comment':
          return `/* c */${text}`;
        case 'bare string':
          return JSON.stringify(text);
      }
    })();
    return { payload, mutation: `JSON ${kind}` };
  });
}

// ── headers ───────────────────────────────────────────────────────────────────────────────────────

const position = fc.oneof(
  { weight: 4, arbitrary: fc.nat(10_000) },
  { weight: 2, arbitrary: fc.constantFrom(0, 1, 511, 512, 4095, 4096, 4097) },
  { weight: 1, arbitrary: fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 1e21) },
).map((n) => (n >= 1e21 ? '99999999999999999999999' : String(n)));

/** Range header values of every shape: single, open, suffix, several, unknown units, spaces, signs, junk. */
export const rangeHeader: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(position, position).map(([a, b]) => `bytes=${a}-${b}`),
  position.map((a) => `bytes=${a}-`),
  position.map((a) => `bytes=-${a}`),
  fc.array(fc.tuple(position, position), { minLength: 2, maxLength: 5 }).map((r) => `bytes=${r.map(([a, b]) => `${a}-${b}`).join(',')}`),
  fc.tuple(fc.constantFrom('BYTES=', 'bytes =', 'bytes= ', 'items=', 'bits=', '=', 'bytes', ''), position, position).map(([u, a, b]) => `${u}${a}-${b}`),
  fc.constantFrom('bytes=-', 'bytes=--5', 'bytes=-1-5', 'bytes=5--1', 'bytes=1.5-2', 'bytes=0x10-0x20', 'bytes=1e2-1e3', 'bytes=+1-2', 'bytes=0-0,-1', 'bytes=\u0000-1', 'bytes=０-１', 'bytes=1-2, ', 'bytes=,'),
  fc.string({ unit: textUnit, maxLength: 30 }),
);

/** Entity tags and dates for conditional headers: real-looking, weak, lists, '*', junk. */
export function conditionalHeader(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...known, '*', 'W/"x"', '"a", "b"', 'Thu, 01 Jan 1970 00:00:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'not a date', '""', 'W/', ','),
    fc.string({ unit: textUnit, maxLength: 40 }),
  );
}
