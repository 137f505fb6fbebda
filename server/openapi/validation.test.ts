import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSyntheticApp, syntheticModule } from '../../tests/utils/synthetic-api.ts';
import { compileTextValidator } from './validation.ts';

describe('integers in paths and query strings are plain decimal digits', () => {
  const positive = compileTextValidator({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } } });
  const signed = compileTextValidator({ type: 'object', properties: { n: { type: 'integer' } } });

  it.each(['0x2', '0X2', '0b10', '0o2', '2e0', '2.0', '2.', '.2', '002', '00', ' 2', '2 ', '+2', '-2', '-0', '', '２', 'Infinity', '1_000'])(
    'refuses %j where negatives are not allowed',
    (text) => {
      const data = { n: text };
      expect(positive(data)).toBe(false);
      expect(positive.errors).toEqual([expect.objectContaining({ instancePath: '/n', message: 'must be an integer written in decimal digits' })]);
      expect(data.n).toBe(text); // not coerced
    },
  );

  it.each([['1', 1], ['2', 2], ['10', 10], ['2147483647', 2147483647]])('reads %j as %d', (text, value) => {
    const data: Record<string, unknown> = { n: text };
    expect(positive(data)).toBe(true);
    expect(data.n).toBe(value);
  });

  it('takes a leading minus only where the schema allows negatives, and never -0 or 0-padding', () => {
    const data: Record<string, unknown> = { n: '-12' };
    expect(signed(data)).toBe(true);
    expect(data.n).toBe(-12);
    expect(signed({ n: '0' })).toBe(true);
    for (const text of ['-0', '-012', '--1', '- 1', '+12']) expect(signed({ n: text }), text).toBe(false);
    expect(compileTextValidator({ type: 'object', properties: { n: { type: 'integer', minimum: 0 } } })({ n: '-1' })).toBe(false);
    expect(compileTextValidator({ type: 'object', properties: { n: { type: 'integer', exclusiveMinimum: 0 } } })({ n: '-1' })).toBe(false);
  });

  it('checks every value of a repeated parameter and of an array of integers', () => {
    const list = compileTextValidator({ type: 'object', properties: { n: { type: 'array', items: { type: 'integer', minimum: 0 } } } });
    expect(list({ n: ['1', '0x2'] })).toBe(false);
    const data: Record<string, unknown> = { n: ['1', '0', '22'] };
    expect(list(data)).toBe(true);
    expect(data.n).toEqual([1, 0, 22]);
  });

  it('leaves the other checks to the schema (range, other fields)', () => {
    expect(positive({ n: '0' })).toBe(false);
    expect(positive.errors?.[0]).toMatchObject({ keyword: 'minimum' });
    const mixed = compileTextValidator({ type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string', pattern: '^x' } } });
    expect(mixed({ n: '1', s: '0x1' })).toBe(false);
    expect(mixed.errors?.[0]).toMatchObject({ keyword: 'pattern' });
    expect(mixed({ s: 'xx' })).toBe(true);
  });
});

describe('over HTTP, on a contract\'s paths and query strings', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildSyntheticApp([syntheticModule({ name: 'things', handlers: { getThing: async (request) => ({ params: request.params, query: request.query }) } })]);
  });
  afterAll(async () => app.close());

  it.each(['0x10', '0b10', '2e0', '2.0', '002', '%202', '%2B2', '-2', '1%00'])('GET /api/things/%s is 400 validation-error naming params.id', async (id) => {
    const res = await app.inject({ method: 'GET', url: `/api/things/${id}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      type: 'validation-error',
      detail: 'params.id: must be an integer written in decimal digits',
      errors: [{ field: 'params.id', message: 'must be an integer written in decimal digits' }],
    });
  });

  it.each(['0x2', '2e0', '2.0', '02', '%202', '2%20'])('GET /api/things/1?limit=%s is 400 validation-error naming query.limit', async (limit) => {
    const res = await app.inject({ method: 'GET', url: `/api/things/1?limit=${limit}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'query.limit' }] });
  });

  it('decimal spellings are read as numbers; a negative where the schema allows it', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/things/16?limit=2&delta=-3&ids=0&ids=7' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ params: { id: 16 }, query: { limit: 2, delta: -3, ids: [0, 7] } });
  });
});
