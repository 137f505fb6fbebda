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

/** Bodies are taken as sent: no type coercion, unknown fields refused by the schemas. */
export const bodyAjv = make({ coerceTypes: false });
/** Query strings, paths and headers are text: numbers and booleans are read from it. */
export const textAjv = make({ coerceTypes: 'array' });
/** Responses are checked as they are sent, with every error listed. */
export const responseAjv = make({ coerceTypes: false, useDefaults: false, allErrors: true });

export function compile(ajv: Ajv, schema: Schema): ValidateFunction {
  return ajv.compile(schema);
}
