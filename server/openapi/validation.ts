import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Schema } from './contract.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

const common: Options = {
  strict: false,
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  discriminator: true,
};

function make(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  addFormats(ajv);
  return ajv;
}

/**
 * Bodies are taken as sent: no type coercion, unknown fields refused by the schemas. `verbose` puts the
 * failing schema on each error, so a field's own problem type (`x-problem-type`) can be answered.
 */
export const bodyAjv = make({ coerceTypes: false, verbose: true });
/** Query strings, paths and headers are text: numbers and booleans are read from it. */
export const textAjv = make({ coerceTypes: 'array' });
/** Responses are checked as they are sent, with every error listed. */
export const responseAjv = make({ coerceTypes: false, useDefaults: false, allErrors: true });

export function compile(ajv: Ajv, schema: Schema): ValidateFunction {
  return ajv.compile(schema);
}

/** The only spellings of an integer in a path or query string: `0`, `12`, and `-12` where negatives are allowed. */
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const SIGNED_DECIMAL = /^(0|-?[1-9][0-9]*)$/;

function isIntegerSchema(schema: Schema | undefined): boolean {
  const type = schema?.type;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
}

function allowsNegatives(schema: Schema): boolean {
  const { minimum, exclusiveMinimum } = schema as { minimum?: unknown; exclusiveMinimum?: unknown };
  if (typeof minimum === 'number' && minimum >= 0) return false;
  if (typeof exclusiveMinimum === 'number' && exclusiveMinimum >= -1) return false;
  return true;
}

/** The integer fields of a path/query/header object schema (an array of integers counts too), with their spelling. */
function integerFields(schema: Schema): Array<{ name: string; spelling: RegExp }> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const fields: Array<{ name: string; spelling: RegExp }> = [];
  for (const [name, property] of Object.entries(properties)) {
    const items = property.type === 'array' ? (property.items as Schema | undefined) : undefined;
    const integer = isIntegerSchema(property) ? property : isIntegerSchema(items) ? items! : undefined;
    if (integer) fields.push({ name, spelling: allowsNegatives(integer) ? SIGNED_DECIMAL : DECIMAL });
  }
  return fields;
}

interface TextValidate {
  (data: unknown, context?: unknown): boolean;
  errors?: ValidateFunction['errors'];
  schemaEnv?: unknown;
}

/**
 * The validator of a path, query or header object. Ajv reads numbers from text with `Number()`, which
 * also takes `0x10`, `0b10`, `1e1`, `2.0`, `002` and ` 2`; an integer there must be written in plain
 * decimal digits, so the raw text is checked first, then Ajv validates (and coerces) as usual.
 */
export function compileTextValidator(schema: Schema): TextValidate {
  const ajvValidate = textAjv.compile(schema);
  const fields = integerFields(schema);
  const validate: TextValidate = (data, context) => {
    if (data && typeof data === 'object') {
      for (const { name, spelling } of fields) {
        const value = (data as Record<string, unknown>)[name];
        if (value === undefined) continue;
        const values = Array.isArray(value) ? value : [value];
        if (values.some((v) => typeof v !== 'string' || !spelling.test(v))) {
          validate.errors = [
            {
              instancePath: `/${name}`,
              schemaPath: `#/properties/${name}/type`,
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be an integer written in decimal digits',
            },
          ];
          return false;
        }
      }
    }
    const valid = (ajvValidate as (d: unknown, c?: unknown) => boolean)(data, context);
    validate.errors = ajvValidate.errors;
    return valid;
  };
  // Fastify passes the parent object (so Ajv may coerce in place) when the function carries schemaEnv.
  validate.schemaEnv = ajvValidate.schemaEnv;
  return validate;
}
