import type { OperationSpec, ParameterSpec, Schema } from '../../server/openapi/contract.ts';

/** Strings tried for a string parameter with a pattern but no example (the first that matches is used). */
const CANDIDATES = ['abcdefgh12', '1', ...Array.from({ length: 100 }, (_, i) => 'a'.repeat(i + 1))];

/**
 * A value the contract accepts for a parameter: its example, else the first value of its enum, its
 * default, 1 for an integer, or a string matching its pattern. Throws when none can be found, so a new
 * parameter kind gets an example in openapi.yaml rather than a silently wrong request.
 */
export function exampleOf(parameter: ParameterSpec): string {
  const schema = parameter.schema as Schema & { enum?: unknown[]; examples?: unknown[]; pattern?: string; minimum?: number };
  const example = (parameter as { example?: unknown }).example ?? schema.examples?.[0] ?? schema.enum?.[0] ?? schema.default;
  if (example !== undefined) return String(example);
  if (schema.type === 'integer') return String(Math.max(1, schema.minimum ?? 1));
  if (schema.type === 'string') {
    const match = CANDIDATES.find((c) => !schema.pattern || new RegExp(schema.pattern, 'u').test(c));
    if (match) return match;
  }
  throw new Error(`no example value for parameter ${parameter.name}: give it an example in openapi.yaml`);
}

/** The operation's URL with every path parameter filled: from `values`, else with an example value. */
export function exampleUrl(op: OperationSpec, values: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_all, name: string) => {
    const parameter = op.parameters.find((p) => p.in === 'path' && p.name === name);
    if (!parameter) throw new Error(`${op.operationId}: path parameter {${name}} is not declared`);
    return values[name] ?? encodeURIComponent(exampleOf(parameter));
  });
}

/**
 * The operation's URL with its required query parameters too (example values), and any parameter in
 * `values` (path or query) set to that raw text instead.
 */
export function exampleUrlWithQuery(op: OperationSpec, values: Record<string, string> = {}): string {
  const query = op.parameters
    .filter((p) => p.in === 'query' && (p.required || p.name in values))
    .map((p) => `${encodeURIComponent(p.name)}=${values[p.name] ?? encodeURIComponent(exampleOf(p))}`);
  return query.length ? `${exampleUrl(op, values)}?${query.join('&')}` : exampleUrl(op, values);
}

/** The integer parameters (path and query) of an operation. */
export function integerParameters(op: OperationSpec): ParameterSpec[] {
  return op.parameters.filter((p) => (p.in === 'path' || p.in === 'query') && (p.schema as { type?: unknown }).type === 'integer');
}
