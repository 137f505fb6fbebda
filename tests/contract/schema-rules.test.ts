import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTagName } from '../../server/modules/etiquetas/etiquetas.service.ts';
import { isTimeZone } from '../../server/modules/videos/dates.ts';
import { loadContract, type Schema } from '../../server/openapi/contract.ts';
import { arbitraryOf } from '../utils/openapi-arbitraries.ts';

const contract = loadContract();
const body = (operationId: string) => contract.operations.find((op) => op.operationId === operationId)!.body!.schema!;
const ajv = new Ajv({ strict: false });

/** Names with spaces (and other white space) at either end and inside, short and long, now and then any Unicode. */
const spacedName = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(' ', '\t', '\u00a0', '\u3000'), maxLength: 3 }),
    fc.string({ unit: fc.oneof(fc.constantFrom('a', 'ñ', ' ', '😀'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 54 }),
    fc.string({ unit: fc.constantFrom(' ', '\n'), maxLength: 3 }),
  )
  .map(([before, name, after]) => before + name + after);

const accepts = (check: () => unknown) => {
  try {
    check();
    return true;
  } catch {
    return false;
  }
};

describe('the contract says what the server does', () => {
  it('a tag name: the schema admits exactly the names the server takes once trimmed (3 to 50 characters, 50 at most as sent)', () => {
    const validate = ajv.compile((body('createEtiqueta').properties as Record<string, Schema>).nombre!);
    fc.assert(
      fc.property(spacedName, (name) => {
        expect(validate(name), JSON.stringify(name)).toBe(accepts(() => checkTagName(name, 'body.nombre')));
      }),
      { numRuns: 2000 },
    );
  });

  it('the tag operations use that schema for the name', () => {
    const create = ajv.compile(body('createEtiqueta'));
    const rename = ajv.compile(body('patchEtiqueta'));
    for (const name of ['  ab  ', '   ', ' Formación ']) {
      const taken = accepts(() => checkTagName(name, 'body.nombre'));
      expect([create({ nombre: name }), rename([{ op: 'replace', path: '/nombre', value: name }])], JSON.stringify(name)).toEqual([taken, taken]);
    }
  });

  it('no text of a request may hold U+0000: every string of every path, query and body schema refuses it', () => {
    /** The string schemas in a schema, with where they are. */
    const texts = (schema: Schema, where: string): Array<{ where: string; schema: Schema }> => {
      const type = schema.type;
      const found = type === 'string' || (Array.isArray(type) && type.includes('string')) ? [{ where, schema: { ...schema, type: 'string' } }] : [];
      const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>).flatMap(([k, s]) => texts(s, `${where}.${k}`));
      const items = schema.items ? texts(schema.items as Schema, `${where}.0`) : [];
      const branches = [...((schema.oneOf ?? []) as Schema[]), ...((schema.anyOf ?? []) as Schema[])].flatMap((b, i) => texts(b, `${where}(${i})`));
      return [...found, ...properties, ...items, ...branches];
    };
    const all = contract.operations.flatMap((op) => [
      ...op.parameters.filter((p) => p.in !== 'header').flatMap((p) => texts(p.schema, `${op.operationId} ${p.in === 'path' ? 'params' : p.in}.${p.name}`)),
      ...(op.body?.schema ? texts(op.body.schema, `${op.operationId} body`) : []),
    ]);
    expect(all.length).toBeGreaterThan(20);
    for (const { where, schema } of all) {
      const validate = ajv.compile(schema);
      const withNul = arbitraryOf(schema).map((text) => {
        const t = String(text);
        const at = Math.floor(t.length / 2);
        return `${t.slice(0, at)}\u0000${t.slice(at)}`;
      });
      fc.assert(
        fc.property(withNul, (text) => {
          expect(validate(text), `${where}: ${JSON.stringify(text)}`).toBe(false);
        }),
        { numRuns: 20 },
      );
    }
  });

  it('a time zone: the pattern of `tz` admits every zone the server knows (what it cannot say, a real zone, is a 400 on query.tz)', () => {
    const tz = contract.operations.find((op) => op.operationId === 'listVideos')!.parameters.find((p) => p.name === 'tz')!;
    const validate = ajv.compile(tz.schema);
    const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/GMT+5', 'europe/madrid', 'US/Pacific'];
    expect(zones.filter((zone) => isTimeZone(zone) && !validate(zone))).toEqual([]);
  });
});
