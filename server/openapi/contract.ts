import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { rootDir } from '../config.ts';

/** A JSON Schema as found in openapi.yaml, with every $ref resolved. */
export type Schema = Record<string, unknown>;

export type SecurityRequirement = Record<string, string[]>;

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

/** One operation of openapi.yaml, ready to be registered as a Fastify route. */
export interface OperationSpec {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** the OpenAPI path, e.g. /api/videos/{id} */
  path: string;
  /** the Fastify URL, e.g. /api/videos/:id */
  url: string;
  security: SecurityRequirement[];
  parameters: ParameterSpec[];
  body: { required: boolean; contentTypes: string[]; schema: Schema | undefined } | undefined;
  /** status code (or 'default') → content type → schema (undefined: no content) */
  responses: Record<string, Record<string, Schema | undefined>>;
}

export interface Contract {
  document: Record<string, unknown>;
  operations: OperationSpec[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Resolves every local $ref (the API has no recursive schemas) and drops keywords Ajv has no use for. */
function deref(node: unknown, document: Record<string, unknown>, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(n, document, seen));
  if (!node || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  if (typeof obj.$ref === 'string') {
    const ref = obj.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
    if (seen.includes(ref)) throw new Error(`recursive $ref ${ref}`);
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((acc, key) => (acc as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    const { $ref: _ignored, ...siblings } = obj;
    return { ...(deref(target, document, [...seen, ref]) as object), ...(deref(siblings, document, seen) as object) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'format' && value === 'binary') continue;
    out[key] = deref(value, document, seen);
  }
  return out;
}

export function loadContract(file = path.join(rootDir, 'openapi.yaml')): Contract {
  const document = parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const globalSecurity = (document.security as SecurityRequirement[] | undefined) ?? [];
  const paths = document.paths as Record<string, Record<string, unknown>>;
  const operations: OperationSpec[] = [];
  for (const [p, item] of Object.entries(paths)) {
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const params = deref([...shared, ...((op.parameters as unknown[] | undefined) ?? [])], document) as ParameterSpec[];
      const rb = deref(op.requestBody, document) as
        | { required?: boolean; content: Record<string, { schema?: Schema }> }
        | undefined;
      const responses: OperationSpec['responses'] = {};
      for (const [status, r] of Object.entries(deref(op.responses, document) as Record<string, { content?: Record<string, { schema?: Schema }> }>)) {
        responses[status] = {};
        for (const [ct, media] of Object.entries(r.content ?? {})) responses[status][ct] = media.schema;
      }
      const contentTypes = rb ? Object.keys(rb.content) : [];
      operations.push({
        operationId: String(op.operationId),
        method: method.toUpperCase() as OperationSpec['method'],
        path: p,
        url: p.replace(/\{([^}]+)\}/g, ':$1'),
        security: (op.security as SecurityRequirement[] | undefined) ?? globalSecurity,
        parameters: params.map((x) => ({ ...x, required: Boolean(x.required) })),
        body: rb
          ? {
              required: Boolean(rb.required),
              contentTypes,
              schema: contentTypes.map((ct) => rb.content[ct]?.schema).find((s) => s && s.type !== 'string'),
            }
          : undefined,
        responses,
      });
    }
  }
  return { document, operations };
}
