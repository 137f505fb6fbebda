import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ServerModule } from '../../server/context.ts';
import { loadContract, type Contract } from '../../server/openapi/contract.ts';
import { registerModules } from '../../server/openapi/modules.ts';
import { clientErrorHandler, frameworkErrors, registerProblemHandling } from '../../server/plugins/problems.ts';

/**
 * A small contract of its own, so the tests of the registration layer (module wiring, validation,
 * body parsing, problems, logging) do not depend on which operations of openapi.yaml colleagues have
 * built: any operation here can be left unimplemented or claimed by a test module.
 */
const SYNTHETIC_OPENAPI = `
openapi: 3.1.0
info: { title: synthetic, version: '1' }
paths:
  /api/things:
    post:
      operationId: createThing
      requestBody:
        required: false
        content:
          application/json:
            schema: { type: object, additionalProperties: false, properties: { name: { type: string } } }
      responses: { default: { description: any } }
  /api/things/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: integer, minimum: 1, maximum: 2147483647 } }
    get:
      operationId: getThing
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 10 } }
        - { name: delta, in: query, schema: { type: integer } }
        - { name: ids, in: query, schema: { type: array, items: { type: integer, minimum: 0 } } }
      responses: { default: { description: any } }
    patch:
      operationId: patchThing
      requestBody:
        required: true
        content:
          application/json-patch+json:
            schema: { type: array, items: { type: object } }
          application/json:
            schema: { type: array, items: { type: object } }
      responses: { default: { description: any } }
  /api/files/{name}:
    put:
      operationId: putFile
      parameters:
        - { name: name, in: path, required: true, schema: { type: string } }
      requestBody:
        required: true
        content:
          video/*: { schema: { type: string, format: binary } }
          application/octet-stream: { schema: { type: string, format: binary } }
      responses: { default: { description: any } }
  /api/notes:
    post:
      operationId: createNote
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [text, password]
              additionalProperties: false
              properties:
                text: { type: string, minLength: 1 }
                password: { type: string, minLength: 8, maxLength: 128, x-problem-type: invalid-password }
      responses: { default: { description: any } }
  /api/boom:
    get:
      operationId: boom
      responses: { default: { description: any } }
`;

let contract: Contract | undefined;

export function syntheticContract(): Contract {
  if (!contract) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tao-synthetic-')), 'openapi.yaml');
    fs.writeFileSync(file, SYNTHETIC_OPENAPI);
    contract = loadContract(file);
  }
  return contract;
}

type LooseHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** A module of the synthetic contract (its operationIds are not openapi.yaml's, hence the loose handler type). */
export function syntheticModule(module: Omit<ServerModule, 'handlers' | 'bodyLimits'> & { handlers: Record<string, LooseHandler>; bodyLimits?: Record<string, number> }): ServerModule {
  return module as unknown as ServerModule;
}

/** A Fastify app like buildApp's (problems, framework errors, module wiring) over the synthetic contract. */
export async function buildSyntheticApp(modules: ServerModule[], options: { logStream?: Writable; bodyLimit?: number } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logStream ? { level: 'info', stream: options.logStream } : false,
    bodyLimit: options.bodyLimit ?? 1024,
    return503OnClosing: false,
    frameworkErrors,
    clientErrorHandler,
  });
  registerProblemHandling(app);
  await registerModules(app, syntheticContract(), modules, { schemes: {} });
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send());
  await app.ready();
  return app;
}
