import { describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../tests/utils/server-harness.ts';

describeOnEachDatabase('foundation', (server) => {
  it('answers health with the database it uses', async () => {
    const res = await server().app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: server().kind });
  });

  it('sets an XSRF-TOKEN cookie on a response to a request without one', async () => {
    const res = await server().app.inject({ method: 'GET', url: '/api/health' });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^XSRF-TOKEN=[A-Za-z0-9_-]{40,};/);
    expect(cookie).toMatch(/SameSite=Strict/i);
  });

  it('answers unknown /api paths with a problem, not the SPA', async () => {
    const res = await server().app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ type: 'resource-not-found', status: 404 });
  });

  it('sends security headers with a CSP that forbids inline scripts and framing', async () => {
    const res = await server().app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('bad input never breaks the server', () => {
  describeOnEachDatabase('bad input', (server) => {
    it('refuses malformed JSON with a validation problem', async () => {
      const res = await call(server().app, { method: 'POST', url: '/api/login', payload: '{"user": "a", ', headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation-error', status: 400 });
    });

    it('refuses wrong types and names the field', async () => {
      const res = await call(server().app, { method: 'POST', url: '/api/login', payload: { user: 42, password: 'x' } });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.type).toBe('validation-error');
      expect(JSON.stringify(body)).toContain('body');
    });

    it('refuses unknown fields', async () => {
      const res = await call(server().app, { method: 'POST', url: '/api/register', payload: { user: 'ana', password: 'secret-pass', token: 'abc', admin: true } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'body.admin', message: 'unknown field' })]));
    });

    it('refuses oversized bodies with 413', async () => {
      const big = JSON.stringify({ user: 'a', password: 'x'.repeat(2 * 1024 * 1024) });
      const res = await call(server().app, { method: 'POST', url: '/api/login', payload: big, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ type: 'payload-too-large', status: 413 });
    });

    it('refuses a body in a content type the operation does not take', async () => {
      const res = await call(server().app, { method: 'POST', url: '/api/login', payload: 'user=a&password=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ type: 'unsupported-media-type' });
    });

    it('keeps serving after all of that', async () => {
      const res = await server().app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
    });
  });
});
