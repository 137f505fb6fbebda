import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTagName } from '../../server/modules/etiquetas/etiquetas.service.ts';
import { loadContract, type Schema } from '../../server/openapi/contract.ts';

const contract = loadContract();
const schemas = (contract.document as { components: { schemas: Record<string, Schema> } }).components.schemas;
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
    const validate = ajv.compile(schemas.EtiquetaNombre!);
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
});
