import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerModule } from '../context.ts';
import { registerProblemHandling } from '../plugins/problems.ts';
import { HttpProblem } from '../plugins/problems.ts';
import { loadContract } from './contract.ts';
import { registerModules } from './modules.ts';

/** A contract of its own: one JSON answer whose schema names some members, through a $ref. */
const OPENAPI = `
openapi: 3.1.0
info: { title: serialization, version: '1' }
paths:
  /api/things/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: integer, minimum: 1 } }
    get:
      operationId: getThing
      responses:
        '200':
          description: a thing
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Thing' }
        4XX:
          description: a problem
          content:
            application/problem+json:
              schema: { $ref: '#/components/schemas/Problem' }
components:
  schemas:
    Thing:
      type: object
      required: [id, at, note, tags]
      additionalProperties: false
      properties:
        id: { type: integer }
        at: { type: string, format: date-time }
        note: { type: [string, 'null'] }
        tags: { type: array, items: { type: object, required: [nombre], properties: { nombre: { type: string } } } }
    Problem:
      type: object
      required: [type, title, status]
      properties:
        type: { type: string }
        title: { type: string }
        status: { type: integer }
        detail: { type: string }
`;

describe("answers are written from the contract's response schemas", () => {
  const app = Fastify({ logger: false });
  beforeAll(async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tao-serialization-')), 'openapi.yaml');
    fs.writeFileSync(file, OPENAPI);
    registerProblemHandling(app);
    const module = {
      handlers: {
        getThing: async (request: { params: { id: number } }) => {
          if (request.params.id === 2) throw new HttpProblem(404, 'resource-not-found', 'no such thing');
          return { id: 1, at: new Date('2026-01-02T03:04:05.000Z'), note: null, secret: 'not in the contract', tags: [{ nombre: 'Rojo', hidden: true }] };
        },
      },
    } as unknown as ServerModule;
    await registerModules(app, loadContract(file), [module], { schemes: {} });
    await app.ready();
  });
  afterAll(() => app.close());

  it('sends the members the schema names, in its order, and no other (not even nested)', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/things/1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe('{"id":1,"at":"2026-01-02T03:04:05.000Z","note":null,"tags":[{"nombre":"Rojo"}]}');
  });

  it('writes problems from the problem schema', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/things/2' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toEqual({ type: 'resource-not-found', title: 'Not Found', status: 404, detail: 'no such thing' });
  });
});
