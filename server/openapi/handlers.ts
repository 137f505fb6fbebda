import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../contract/openapi.gen.ts';

/** Every operationId of openapi.yaml. */
export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];

type Defined<T> = [T] extends [undefined] ? Record<string, never> : Exclude<T, undefined>;

type JsonOf<C> = C extends { 'application/json': infer B } ? B : C extends { 'application/json-patch+json': infer B } ? B : unknown;

/** The parsed JSON body an operation accepts (undefined when it takes none or it is optional). */
export type BodyOf<K extends OperationId> = Op<K> extends { requestBody: { content: infer C } }
  ? JsonOf<C>
  : Op<K> extends { requestBody?: { content: infer C } }
    ? JsonOf<C> | undefined
    : undefined;

export type QueryOf<K extends OperationId> = Op<K> extends { parameters: { query?: infer Q } } ? Defined<Q> : Record<string, never>;
export type ParamsOf<K extends OperationId> = Op<K> extends { parameters: { path?: infer P } } ? Defined<P> : Record<string, never>;

type ResponsesOf<K extends OperationId> = Op<K>['responses'];
/** What a handler may answer: the JSON of its 2xx responses (void for 204). */
export type ReplyOf<K extends OperationId> = {
  [S in keyof ResponsesOf<K>]: S extends 200 | 201 | 206
    ? ResponsesOf<K>[S] extends { content: { 'application/json': infer R } }
      ? R
      : void
    : S extends 204
      ? void
      : never;
}[keyof ResponsesOf<K>];

export type OperationRequest<K extends OperationId> = FastifyRequest<{
  Body: BodyOf<K>;
  Querystring: QueryOf<K>;
  Params: ParamsOf<K>;
}>;

export type Handler<K extends OperationId> = (request: OperationRequest<K>, reply: FastifyReply) => Promise<ReplyOf<K>>;

/** Handlers by operationId; a module supplies the ones of its area. */
export type Handlers = { [K in OperationId]?: Handler<K> };
