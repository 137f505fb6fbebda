import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSyntheticApp, syntheticModule } from '../../tests/utils/synthetic-api.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { ModuleConflictError, streamedBody } from './modules.ts';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
async function build(...args: Parameters<typeof buildSyntheticApp>) {
  const app = await buildSyntheticApp(...args);
  apps.push(app);
  return app;
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('modules are wired to the contract at start', () => {
  it('two modules claiming one operation stop the start with an error naming both', async () => {
    const first = syntheticModule({ name: 'things', handlers: { getThing: async () => ({}) } });
    const second = syntheticModule({ name: 'more-things', handlers: { getThing: async () => ({}) } });
    await expect(buildSyntheticApp([first, second])).rejects.toThrow(
      new ModuleConflictError('operation getThing is claimed by two modules: "things" and "more-things"; exactly one may handle it'),
    );
  });

  it('buildApp refuses to start when a module claims an operation another module handles', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-modules-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIR: path.join(dataDir, 'none') });
    const db = await openDatabase({ dataDir });
    try {
      const impostor = { name: 'impostor', handlers: { getHealth: async () => ({ status: 'ok' as const, version: 'x', database: 'sqlite' as const }) } };
      await expect(buildApp({ config, db, logger: false, extraModules: () => [impostor] })).rejects.toThrow(
        /operation getHealth is claimed by two modules: "health" and "impostor"/,
      );
    } finally {
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a handler for an operation the contract does not have, or a body limit for another module\'s operation, stops the start', async () => {
    await expect(buildSyntheticApp([syntheticModule({ name: 'typo', handlers: { getThng: async () => ({}) } })])).rejects.toThrow(
      /module "typo" has a handler for getThng, which openapi.yaml does not define/,
    );
    await expect(
      buildSyntheticApp([syntheticModule({ name: 'greedy', handlers: { getThing: async () => ({}) }, bodyLimits: { putFile: 10 } })]),
    ).rejects.toThrow(/module "greedy" sets a body limit for putFile, which it does not handle/);
  });

  it('a module handling an operation whose body type it has no parser for stops the start, saying what to declare', async () => {
    await expect(buildSyntheticApp([syntheticModule({ name: 'files', handlers: { putFile: async () => undefined } })])).rejects.toThrow(
      /module "files" handles putFile, which accepts video\/\*, but declares no content-type parser for it/,
    );
  });

  it('operations no module handles answer 501, whatever body type the contract lets them take', async () => {
    const app = await build([]);
    const file = await app.inject({ method: 'PUT', url: '/api/files/a', payload: 'bytes', headers: { 'content-type': 'video/mp4' } });
    expect(file.statusCode).toBe(501);
    expect(file.json()).toMatchObject({ type: 'not-implemented', detail: 'putFile is not implemented yet' });
    expect(file.headers['content-type']).toContain('application/problem+json');
  });
});

describe('a module carries its own needs', () => {
  it('its content-type parsers read its operations\' bodies (files as streams) and no one else\'s', async () => {
    const files = syntheticModule({
      name: 'files',
      contentTypeParsers: streamedBody(['video/*', 'application/octet-stream']),
      handlers: {
        putFile: async (request, reply) => {
          reply.code(200).send({ received: await text(request.body as Readable), type: request.headers['content-type'] });
          return undefined;
        },
      },
    });
    const notes = syntheticModule({ name: 'notes', handlers: { createNote: async () => ({ ok: true }) } });
    const app = await build([files, notes]);
    for (const type of ['video/mp4', 'video/webm', 'application/octet-stream']) {
      const res = await app.inject({ method: 'PUT', url: '/api/files/a', payload: 'the bytes', headers: { 'content-type': type } });
      expect(res.statusCode, type).toBe(200);
      expect(res.json()).toEqual({ received: 'the bytes', type });
    }
    // the contract does not list image/png for putFile
    const other = await app.inject({ method: 'PUT', url: '/api/files/a', payload: 'x', headers: { 'content-type': 'image/png' } });
    expect(other.statusCode).toBe(415);
    // the files module's video parser is not the notes module's
    const elsewhere = await app.inject({ method: 'POST', url: '/api/notes', payload: 'x', headers: { 'content-type': 'video/mp4' } });
    expect(elsewhere.statusCode).toBe(415);
    expect(elsewhere.json()).toMatchObject({ type: 'unsupported-media-type' });
  });

  it('its body limits apply to its operations only', async () => {
    const notes = syntheticModule({ name: 'notes', bodyLimits: { createNote: 4096 }, handlers: { createNote: async () => ({ ok: true }) } });
    const things = syntheticModule({ name: 'things', handlers: { createThing: async () => ({ ok: true }) } });
    const app = await build([notes, things], { bodyLimit: 1024 });
    const big = JSON.stringify({ text: 'x'.repeat(2000), password: 'long-enough' });
    const note = await app.inject({ method: 'POST', url: '/api/notes', payload: big, headers: { 'content-type': 'application/json' } });
    expect(note.statusCode).toBe(200);
    const tooBig = await app.inject({ method: 'POST', url: '/api/notes', payload: JSON.stringify({ text: 'x'.repeat(5000), password: 'long-enough' }), headers: { 'content-type': 'application/json' } });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ type: 'payload-too-large' });
    const thing = await app.inject({ method: 'POST', url: '/api/things', payload: JSON.stringify({ name: 'x'.repeat(2000) }), headers: { 'content-type': 'application/json' } });
    expect(thing.statusCode).toBe(413);
  });

  it('its plugin runs in its own scope: its hooks see its routes, not the others\'', async () => {
    const things = syntheticModule({
      name: 'things',
      plugin: async (scope) => {
        scope.addHook('onSend', async (_request, reply, payload) => {
          reply.header('x-module', 'things');
          return payload;
        });
      },
      handlers: { getThing: async () => ({ id: 1 }) },
    });
    const app = await build([things, syntheticModule({ name: 'notes', handlers: { createNote: async () => ({ ok: true }) } })]);
    expect((await app.inject({ method: 'GET', url: '/api/things/1' })).headers['x-module']).toBe('things');
    const note = await app.inject({ method: 'POST', url: '/api/notes', payload: { text: 'a', password: 'long-enough' } });
    expect(note.statusCode).toBe(200);
    expect(note.headers['x-module']).toBeUndefined();
  });

  it('JSON Patch bodies are read as JSON whichever module handles them', async () => {
    const app = await build([syntheticModule({ name: 'things', handlers: { patchThing: async (request) => ({ got: request.body }) } })]);
    const res = await app.inject({ method: 'PATCH', url: '/api/things/1', payload: '[{"op":"replace"}]', headers: { 'content-type': 'application/json-patch+json' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ got: [{ op: 'replace' }] });
    const malformed = await app.inject({ method: 'PATCH', url: '/api/things/1', payload: '[{', headers: { 'content-type': 'application/json-patch+json' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ type: 'validation-error', detail: 'body: malformed JSON' });
  });
});

describe('request bodies', () => {
  it('an optional body may be left out; when sent, it is validated (a JSON null too)', async () => {
    const app = await build([syntheticModule({ name: 'things', handlers: { createThing: async (request) => ({ body: request.body ?? 'none' }) } })]);
    const none = await app.inject({ method: 'POST', url: '/api/things' });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({ body: 'none' });
    const sent = await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'a' } });
    expect(sent.json()).toEqual({ body: { name: 'a' } });
    const wrong = await app.inject({ method: 'POST', url: '/api/things', payload: { nombre: 'a' } });
    expect(wrong.statusCode).toBe(400);
    const nullBody = await app.inject({ method: 'POST', url: '/api/things', payload: 'null', headers: { 'content-type': 'application/json' } });
    expect(nullBody.statusCode).toBe(400);
    expect(nullBody.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'body', message: 'must be object' }] });
  });

  it('a field may name its own problem type in the contract (x-problem-type)', async () => {
    const app = await build([syntheticModule({ name: 'notes', handlers: { createNote: async () => ({ ok: true }) } })]);
    const short = await app.inject({ method: 'POST', url: '/api/notes', payload: { text: 'a', password: 'short' } });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ type: 'invalid-password', errors: [{ field: 'body.password' }] });
    const other = await app.inject({ method: 'POST', url: '/api/notes', payload: { text: '', password: 'long-enough' } });
    expect(other.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'body.text' }] });
  });
});
