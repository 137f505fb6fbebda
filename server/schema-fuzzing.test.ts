import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from './db/database.ts';
import { ensureTags } from './modules/etiquetas/etiquetas.repository.ts';
import { insertUpload } from './modules/uploads/uploads.repository.ts';
import { insertVideo } from './modules/videos/videos.service.ts';
import { loadContract, type OperationSpec, type ParameterSpec, type Schema } from './openapi/contract.ts';
import { arbitraryOf, brokenJsonOf, conditionalHeader, HOSTILE_TEXTS, mutantOf, rangeHeader, textUnit } from '../tests/utils/openapi-arbitraries.ts';
import { securityRefusal } from '../tests/utils/security-rules.ts';
import { buildSecurityWorld, CALLERS, MEDIA_BYTES, newAsset, PNG, type CallerName, type SecurityWorld } from '../tests/utils/security-world.ts';
import { startTestServer } from '../tests/utils/server-harness.ts';

/**
 * Schema fuzzing: requests to every operation of openapi.yaml made by fast-check from the operation's
 * own parameter and body schemas, and mutated (wrong types, nulls, extra and missing fields, 1 MB and
 * hostile strings, JSON Patch operations and paths that do not exist, broken JSON, path traversal in
 * ids and file names, tampered signatures and expiries, Range headers of every shape, content types
 * the operation does not take), sent by every kind of caller. Every answer: no 5xx the operation does
 * not document; every error is problem+json with a status the operation documents and a type of the
 * catalogue; a caller the security refuses gets exactly that refusal; answers match openapi.yaml.
 *
 * Two phases per operation. Refused: every request has at least one defect that must refuse it
 * (credential, body, path, query or signature), and no table changes, request by request. Free:
 * anything goes (many succeed), and the sentinel rows no request can name stay as they were. The
 * server answers its health check after each batch.
 *
 * FUZZ_SEED (default below) picks the run; FUZZ_RUNS (default 110: over 5,000 requests in all) is the
 * number of requests per operation and phase. A failure prints fast-check's seed and path, and the shrunk request.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261113);
/** sqlite (default) or postgres */
const DATABASE = process.env.FUZZ_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
const RUNS = Number(process.env.FUZZ_RUNS ?? 110);

const contract = loadContract();
const CATALOGUE = new Set((contract.document as { components: { schemas: { ProblemType: { enum: string[] } } } }).components.schemas.ProblemType.enum);
const SSO = { SSO_HS256_SECRET: 'the-identity-source-shared-secret-for-fuzzing', SSO_ISSUER: 'https://idp.example.org', SSO_AUDIENCE: 'tao' };

/** Statuses the contract's "Errors" section gives any request (bad percent-encoding, headers too large, too slow, shutting down). */
const ANY_REQUEST = [400, 408, 431, 503];
/** A request body over the limit or of a type the operation does not take: any request that carries a body (documented by each operation's `default`). */
const ANY_BODY = [413, 415];

// ── an independent validator: the oracle of "this body must be refused" ─────────────────────────

type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);
const oracle = addFormats(new Ajv({ strict: false, allErrors: false, discriminator: true }));
const textOracle = addFormats(new Ajv({ strict: false, allErrors: false, coerceTypes: true }));
const bodyValidators = new Map<string, ValidateFunction>();
function bodyValid(op: OperationSpec, body: unknown): boolean {
  let validate = bodyValidators.get(op.operationId);
  if (!validate) bodyValidators.set(op.operationId, (validate = oracle.compile(op.body!.schema!)));
  return validate(body);
}

const isInteger = (schema: Schema) => schema.type === 'integer';
/** Whether a path or query value (decoded text) breaks its parameter's schema; integers in decimal digits only (the contract's rule). */
function parameterInvalid(parameter: ParameterSpec, text: string): boolean {
  if (isInteger(parameter.schema)) {
    if (!/^(0|[1-9][0-9]*)$/.test(text)) return true;
    const n = Number(text);
    const { minimum, maximum } = parameter.schema as { minimum?: number; maximum?: number };
    return (minimum !== undefined && n < minimum) || (maximum !== undefined && n > maximum);
  }
  return !textOracle.validate({ type: 'object', properties: { v: parameter.schema }, required: ['v'] }, { v: text });
}

const mediaMatches = (contentType: string, accepted: string[]) => {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return accepted.some((a) => (a.endsWith('/*') ? type.startsWith(a.slice(0, -1)) : type === a));
};

/** The body as Fastify reads it: UTF-8 (bad bytes replaced), a leading byte order mark dropped; undefined when it is not JSON. */
function parsedLikeTheServer(payload: string | Buffer): { value: unknown } | undefined {
  const text = (Buffer.isBuffer(payload) ? payload.toString('utf8') : payload).replace(/^\uFEFF/, '');
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%BD'; // a lone surrogate, encoded as the (invalid) UTF-8 bytes it would be
  }
};

// ── the requests ──────────────────────────────────────────────────────────────────────────────────

interface FuzzCall {
  caller: CallerName;
  method: OperationSpec['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** the path may not reach the operation's route ('..' segments, bad percent-encoding) */
  reroutes: boolean;
  /** why this request must be refused (empty: it may succeed) */
  defects: string[];
  notes: string[];
}

const describeCall = (call: FuzzCall) => {
  const body = call.payload === undefined ? '' : ` body(${call.payload.length}): ${String(call.payload).slice(0, 300)}`;
  return `${call.caller} ${call.method} ${call.url.slice(0, 400)} ${JSON.stringify(call.headers).slice(0, 300)}${body} [${call.notes.join('; ')}] defects: [${call.defects.join('; ')}]`;
};

/** One path, query or header value: its text as sent and whether it breaks the parameter. */
interface Part {
  text: string;
  invalid: boolean;
  reroutes?: boolean;
  note?: string;
}

/** A key for ids no request may name: `<pool>:<id>`. */
const PROTECTED = new Set<string>();

/** Whether a batch's ids (a body's `ids` array, a query's `3,7`) name a video no request may name. */
function namesProtectedVideo(ids: unknown): boolean {
  return (Array.isArray(ids) ? ids : String(ids).split(',')).some((id) => PROTECTED.has(`videos:${String(id)}`));
}
const batchSafe = (body: unknown) => !(body !== null && typeof body === 'object' && 'ids' in body && namesProtectedVideo(body.ids));

const INVALID_INTEGERS = ['0', '-1', '2147483648', '99999999999999999999', '1e3', '0x1', '01', '+1', '1.0', 'abc', '%00', '1%00', '%2e%2e%2f', '..%2F..%2Fetc%2Fpasswd', '%E2%80%AE1', '%20', '%EF%BC%91', 'null', '[]'];
const INVALID_ASSETS = ['..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f%2e%2e%2fsecrets.json', 'short', '%00', 'a'.repeat(65), 'asset_%00_0123', 'asset.mp4', '%E2%80%AEasset_123456', '%F0%9F%98%80%F0%9F%98%80%F0%9F%98%80', 'asset_01234567%2F..', '..%5C..%5Ctao.sqlite'];
const INVALID_FILES = ['..%2Fvideo.mp4', 'video.mp4%00.jpg', 'VIDEO.MP4', 'secrets.json', '..%2F..%2Fsecrets.json', 'tao.sqlite', 'video', 'thumbnail', 'video.mp4.partial', 'thumbnail.pending', '%00'];
/** Segments that change the route itself (URL parsers resolve dot segments, also percent-encoded ones), or break before one is chosen. */
const REROUTING = ['..', '.', '%2e%2e', '%2E.', '%E0%A4%A', '%', '%2', '%C0%AE%C0%AE'];

interface Pools {
  videos: number[];
  tags: number[];
  users: number[];
  invitations: number[];
  invitationTokens: string[];
  uploads: string[];
  media: string[];
  readyUploads: string[];
  etags: string[];
}

type Mode = 'refused' | 'free';
/** A weight by phase: the free phase mostly sends what may succeed, the refused phase mostly what may not. */
const by = (mode: Mode, free: number, refused: number) => (mode === 'free' ? free : refused);

function pathKind(op: OperationSpec): keyof Pools | undefined {
  if (op.path.startsWith('/api/videos/')) return 'videos';
  if (op.path.startsWith('/api/etiquetas/')) return 'tags';
  if (op.path.startsWith('/api/usuarios/')) return 'users';
  if (op.path.startsWith('/api/register-invitations/')) return 'invitations';
  if (op.path.startsWith('/api/uploads/')) return 'uploads';
  if (op.path.startsWith('/api/media/')) return 'media';
  return undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function pathPart(op: OperationSpec, parameter: ParameterSpec, pools: Pools, mode: Mode): fc.Arbitrary<Part> {
  const schema = parameter.schema;
  const kind = pathKind(op);
  const real: unknown[] = Array.isArray(schema.enum) ? schema.enum : parameter.name === 'id' && kind ? (pools[kind] as unknown[]) : [];
  const invalid = (parameter.name === 'file' ? INVALID_FILES : isInteger(schema) ? INVALID_INTEGERS : INVALID_ASSETS).filter((t) => parameterInvalid(parameter, decodeURIComponentSafe(t)));
  const generated = arbitraryOf(schema).filter((v) => !(kind && PROTECTED.has(`${kind}:${String(v)}`)));
  return fc.oneof(
    { weight: real.length > 0 ? by(mode, 16, 6) : 0, arbitrary: fc.constantFrom(...(real.length > 0 ? real : [1])).map((v) => ({ text: encode(String(v)), invalid: false })) },
    { weight: 2, arbitrary: generated.map((v) => ({ text: encode(String(v)), invalid: false })) },
    { weight: by(mode, 1, 3), arbitrary: fc.constantFrom(...invalid).map((t) => ({ text: t, invalid: true, note: `${parameter.name}=${t}` })) },
    { weight: 1, arbitrary: fc.constantFrom(...REROUTING).map((t) => ({ text: t, invalid: true, reroutes: true, note: `${parameter.name}=${t}` })) },
  );
}

function queryPart(parameter: ParameterSpec, pools: Pools, mode: Mode): fc.Arbitrary<Part | undefined> {
  const generated = arbitraryOf(parameter.schema).map((v) => String(v));
  // a batch's ids (DELETE /api/videos?ids=): real videos now and then, never a protected one
  const valid = (parameter.name === 'ids' ? fc.oneof(generated, fc.subarray(pools.videos, { minLength: 1 }).map((ids) => ids.join(','))) : generated).filter((text) => !namesProtectedVideo(text));
  const odd = fc.oneof(
    fc.constantFrom(...HOSTILE_TEXTS, ...INVALID_INTEGERS.map(decodeURIComponentSafe), 'x'.repeat(5000)),
    fc.string({ unit: textUnit, maxLength: 30 }),
    parameter.name === 'tag' ? fc.array(fc.constantFrom(...pools.tags.map(String), '0', '-1', 'x', ''), { maxLength: 60 }).map((ids) => `in:${ids.join(',')}`) : fc.constant('in:1'),
  );
  const present = fc
    .oneof({ weight: by(mode, 10, 3), arbitrary: valid }, { weight: by(mode, 1, 2), arbitrary: odd })
    .map((text) => ({ text: encode(text), invalid: parameterInvalid(parameter, text), note: `${parameter.name}=${text.slice(0, 40)}` }));
  if (parameter.required) return fc.oneof({ weight: 12, arbitrary: present }, { weight: 1, arbitrary: fc.constant(undefined) });
  return fc.oneof({ weight: 1, arbitrary: present }, { weight: by(mode, 2, 1), arbitrary: fc.constant(undefined) });
}

const SIGNATURES = ['valid', 'tampered', 'expired', 'other file', 'other method', 'expires + 1', 'huge expiry', 'negative expiry', 'fractional expiry', 'no signature', 'no expiry', 'random signature', 'short signature', 'duplicated', 'padded signature'] as const;

interface SignaturePart {
  kind: (typeof SIGNATURES)[number];
  /** the expires and signature query parameters for this path */
  query(pathname: string): string;
}

/** expires/signature of a signed location, genuine or tampered with. */
function signaturePart(op: OperationSpec, world: SecurityWorld, mode: Mode): fc.Arbitrary<SignaturePart> {
  const method = op.method;
  return fc.oneof({ weight: by(mode, 40, 14), arbitrary: fc.constant('valid' as const) }, { weight: 14, arbitrary: fc.constantFrom(...SIGNATURES.slice(1)) }).map((kind): SignaturePart => ({
    kind,
    query: (pathname: string) => {
      const inAnHour = Math.floor(Date.now() / 1000) + 3600;
      const signed = (m: string, p: string, e: number) => new URL(world.sign(m, p, e), 'http://x').searchParams.get('signature')!;
      const genuine = signed(method, pathname, inAnHour);
      switch (kind) {
        case 'valid':
          return `expires=${inAnHour}&signature=${genuine}`;
        case 'tampered':
          return `expires=${inAnHour}&signature=${genuine[0] === 'A' ? 'B' : 'A'}${genuine.slice(1)}`;
        case 'expired':
          return `expires=${inAnHour - 7200}&signature=${signed(method, pathname, inAnHour - 7200)}`;
        case 'other file':
          return `expires=${inAnHour}&signature=${signed(method, pathname.replace(/[^/]+$/, (f) => (f.startsWith('video') ? 'thumbnail' : 'video') + (f.includes('.') ? '.mp4' : '')), inAnHour)}`;
        case 'other method':
          return `expires=${inAnHour}&signature=${signed(method === 'GET' ? 'PUT' : 'GET', pathname, inAnHour)}`;
        case 'expires + 1':
          return `expires=${inAnHour + 1}&signature=${genuine}`;
        case 'huge expiry':
          return `expires=99999999999&signature=${genuine}`;
        case 'negative expiry':
          return `expires=-1&signature=${genuine}`;
        case 'fractional expiry':
          return `expires=${inAnHour}.5&signature=${genuine}`;
        case 'no signature':
          return `expires=${inAnHour}`;
        case 'no expiry':
          return `signature=${genuine}`;
        case 'random signature':
          return `expires=${inAnHour}&signature=${'A'.repeat(43)}`;
        case 'short signature':
          return `expires=${inAnHour}&signature=${genuine.slice(0, 42)}`;
        case 'duplicated':
          return `expires=${inAnHour}&signature=${genuine}&signature=${genuine}`;
        case 'padded signature':
          return `expires=${inAnHour}&signature=${genuine}%3D`;
      }
    },
  }));
}

const WRONG_CONTENT_TYPES = ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/merge-patch+json', 'image/png', 'application/octet-stream', '*/*', 'application/json; charset=utf-16', 'APPLICATION/JSON', 'application/json-patch+json; charset=utf-8', 'json'];
const FILE_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'video/mp4', 'video/webm', 'video/quicktime', 'application/octet-stream', 'text/plain', 'application/json', 'image/svg+xml', 'video/x-matroska', 'image/png; charset=utf-8'];
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom')]);
const WEBM = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

interface BodyPart {
  payload?: string | Buffer;
  headers: Record<string, string>;
  invalid: boolean;
  note: string;
}

/** Valid bodies made of real rows, where random ones would never get past the first check (a real account, invitation, upload). */
function seededBody(op: OperationSpec, world: SecurityWorld, pools: Pools): fc.Arbitrary<unknown> | undefined {
  const schema = op.body!.schema!;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  switch (op.operationId) {
    case 'login':
      return fc.record({
        user: fc.constantFrom(world.accounts.login.user, world.accounts.login.user.toUpperCase(), ` ${world.accounts.login.user} `, world.accounts.blocked.user),
        password: fc.constantFrom(world.accounts.login.password, world.accounts.blocked.password, 'not-the-password'),
      });
    case 'mfa':
      return fc.record({ user: fc.constant(world.accounts.login.user), mfaCode: fc.stringMatching(/^[0-9]{6}$/) });
    case 'register':
      return fc.record({ user: arbitraryOf(properties.user!), password: arbitraryOf(properties.password!), token: fc.constantFrom(...pools.invitationTokens) });
    case 'createVideo':
      return fc
        .tuple(arbitraryOf(schema), fc.constantFrom(...pools.readyUploads), fc.subarray(pools.tags))
        .map(([body, idExterno, tags]) => ({ ...(body as object), idExterno, tags }));
    case 'patchVideos':
      return fc.record({
        ids: fc.subarray(pools.videos, { minLength: 1 }),
        operaciones: fc.array(
          fc.oneof(
            fc.constantFrom(...pools.tags).map((value) => ({ op: 'add', path: '/etiquetas/-', value })),
            fc.constantFrom(...pools.tags).map((tag) => ({ op: 'remove', path: `/etiquetas/${tag}` })),
            fc.boolean().map((value) => ({ op: 'replace', path: '/isVisible', value })),
          ),
          { minLength: 1, maxLength: 4 },
        ),
      });
    default:
      return undefined;
  }
}

function jsonBodyPart(op: OperationSpec, mode: Mode, world: SecurityWorld, pools: Pools): fc.Arbitrary<BodyPart> {
  const schema = op.body!.schema!;
  const accepted = op.body!.contentTypes;
  const seeded = seededBody(op, world, pools);
  const contentType = fc.oneof({ weight: by(mode, 12, 4), arbitrary: fc.constantFrom(...accepted) }, { weight: 1, arbitrary: fc.constantFrom(...WRONG_CONTENT_TYPES) });
  const payload = fc.oneof(
    { weight: by(mode, 8, 2), arbitrary: arbitraryOf(schema).filter(batchSafe).map((v) => ({ payload: JSON.stringify(v), note: 'generated body' })) },
    { weight: seeded ? by(mode, 6, 1) : 0, arbitrary: (seeded ?? fc.constant(null)).map((v) => ({ payload: JSON.stringify(v), note: 'body of real rows' })) },
    { weight: by(mode, 4, 6), arbitrary: mutantOf(schema).filter((m) => batchSafe(m.value)).map((m) => ({ payload: m.value === undefined ? undefined : JSON.stringify(m.value), note: m.mutation })) },
    { weight: by(mode, 1, 2), arbitrary: brokenJsonOf(arbitraryOf(schema)).map((b) => ({ payload: b.payload, note: b.mutation })) },
    { weight: 1, arbitrary: fc.constant({ payload: undefined, note: 'no body' }) },
  );
  return fc.tuple(payload, contentType).map(([{ payload: body, note }, type]) => {
    const sent = body !== undefined && body.length > 0;
    let invalid = false;
    if (!sent) invalid = op.body!.required;
    else if (!mediaMatches(type, accepted)) invalid = true;
    else {
      const parsed = parsedLikeTheServer(body);
      invalid = !parsed || !bodyValid(op, parsed.value);
    }
    const headers: Record<string, string> = sent || type !== accepted[0] ? { 'content-type': type } : {};
    return { payload: body, headers, invalid, note: `${note} as ${type}` };
  });
}

/**
 * The body of a signed upload: coherent ones (a PNG thumbnail; a video's first part, its size asked)
 * and every kind of mismatch (content types, leading bytes, Content-Range shapes and sums).
 */
function fileBodyPart(): fc.Arbitrary<BodyPart> {
  const bytes = fc.oneof(
    fc.constant({ b: PNG, note: 'PNG' }),
    fc.uint8Array({ maxLength: 2000 }).map((r) => ({ b: Buffer.concat([MP4, Buffer.from(r)]), note: 'MP4 header + noise' })),
    fc.uint8Array({ maxLength: 500 }).map((r) => ({ b: Buffer.concat([WEBM, Buffer.from(r)]), note: 'WebM header + noise' })),
    fc.uint8Array({ maxLength: 2000 }).map((r) => ({ b: Buffer.from(r), note: 'noise' })),
    fc.constant({ b: Buffer.from('<svg onload=alert(1)>'), note: 'SVG' }),
    fc.constant({ b: Buffer.alloc(0), note: 'empty' }),
  );
  const coherent = fc.oneof(
    fc.constant<BodyPart>({ payload: PNG, headers: { 'content-type': 'image/png' }, invalid: false, note: 'a PNG' }),
    fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 2000 }), fc.nat(10_000)).map(([r, more]): BodyPart => {
      const b = Buffer.concat([MP4, Buffer.from(r)]);
      return { payload: b, headers: { 'content-type': 'video/mp4', 'content-range': `bytes 0-${b.length - 1}/${b.length + 1 + more}` }, invalid: false, note: 'the first part of an MP4' };
    }),
    fc.nat(10_000).map((total): BodyPart => ({ headers: { 'content-range': `bytes */${total}` }, invalid: false, note: 'how much has arrived' })),
  );
  const contentRange = fc.oneof(
    fc.tuple(fc.nat(5000), fc.nat(5000), fc.nat(6000)).map(([a, b, t]) => `bytes ${a}-${b}/${t}`),
    fc.nat(6000).map((t) => `bytes */${t}`),
    fc.constantFrom('bytes 0-0/0', 'bytes */0', 'bytes 0-999999999999999/999999999999999', 'bytes 5-1/10', 'bytes=0-1/2', 'bytes 0-1/*', 'items 0-1/2', ''),
    fc.string({ unit: textUnit, maxLength: 20 }),
  );
  const mismatched = fc.tuple(bytes, fc.option(fc.constantFrom(...FILE_CONTENT_TYPES), { freq: 8 }), fc.option(contentRange, { freq: 2 })).map(([{ b, note }, type, range]): BodyPart => ({
    ...(b.length > 0 ? { payload: b } : {}),
    headers: { ...(type ? { 'content-type': type } : {}), ...(range !== null ? { 'content-range': range } : {}) },
    invalid: false,
    note: `${note} (${b.length} bytes) as ${type ?? 'no type'}${range !== null ? `, Content-Range ${range}` : ''}`,
  }));
  return fc.oneof(coherent, mismatched);
}


function callArbitrary(op: OperationSpec, mode: Mode, world: SecurityWorld, pools: Pools): fc.Arbitrary<FuzzCall> {
  const pathParameters = op.parameters.filter((p) => p.in === 'path');
  const signed = op.operationId === 'getMedia' || op.operationId === 'putUploadFile';
  const queryParameters = op.parameters.filter((p) => p.in === 'query' && !(signed && (p.name === 'expires' || p.name === 'signature')));
  const caller = fc.oneof(
    { weight: 5, arbitrary: fc.constant<CallerName>(op.security.some((r) => 'mfaPending' in r) ? 'mfaPending' : 'admin') },
    { weight: 2, arbitrary: fc.constantFrom<CallerName>('user', 'otherOrganisationUser') },
    { weight: by(mode, 2, 6), arbitrary: fc.constantFrom<CallerName>(...CALLERS) },
  );
  const paths = fc.tuple(...pathParameters.map((p) => pathPart(op, p, pools, mode)));
  const queries = fc.tuple(...queryParameters.map((p) => queryPart(p, pools, mode)));
  const signature: fc.Arbitrary<SignaturePart | undefined> = signed ? signaturePart(op, world, mode) : fc.constant(undefined);
  const body: fc.Arbitrary<BodyPart | undefined> = op.body?.contentTypes.includes('application/json')
    ? jsonBodyPart(op, mode, world, pools)
    : op.body
      ? fileBodyPart()
      : fc.oneof(
          { weight: 20, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constant<BodyPart>({ payload: '{"unexpected":true}', headers: { 'content-type': 'application/json' }, invalid: false, note: 'a body the operation does not take' }) },
          { weight: 1, arbitrary: fc.constant<BodyPart>({ payload: 'x'.repeat(2_000_000), headers: { 'content-type': 'text/plain' }, invalid: false, note: '2 MB the operation does not take' }) },
        );
  const media = op.operationId === 'getMedia';
  const headers = fc.record(
    {
      range: media ? rangeHeader : fc.constant(undefined),
      'if-none-match': media ? conditionalHeader(pools.etags) : fc.constant(undefined),
      'if-modified-since': media ? conditionalHeader([new Date().toUTCString(), new Date(0).toUTCString()]) : fc.constant(undefined),
      'if-range': media ? conditionalHeader(pools.etags) : fc.constant(undefined),
    },
    { requiredKeys: [] },
  );

  return fc
    .tuple(caller, paths, queries, signature, body, headers)
    .map(([who, pathParts, queryParts, sig, bodyPart, extraHeaders]): FuzzCall => {
      let pathname = op.path;
      pathParameters.forEach((p, i) => (pathname = pathname.replace(`{${p.name}}`, pathParts[i]!.text)));
      const query = queryParameters.flatMap((p, i) => (queryParts[i] ? [`${encodeURIComponent(p.name)}=${queryParts[i]!.text}`] : []));
      if (sig) query.unshift(sig.query(pathname));
      const headers: Record<string, string> = world.headers(who);
      for (const [name, value] of Object.entries({ ...extraHeaders, ...bodyPart?.headers })) if (value !== undefined) headers[name] = value;
      const defects = [
        ...(securityRefusal(op, who) ? [`caller ${who}`] : []),
        ...pathParts.filter((p) => p.invalid).map((p) => `path ${p.note}`),
        ...queryParameters.flatMap((p, i) => (p.required && !queryParts[i] ? [`no ${p.name}`] : queryParts[i]?.invalid ? [`query ${queryParts[i]!.note}`] : [])),
        ...(sig && sig.kind !== 'valid' ? [`signature: ${sig.kind}`] : []),
        ...(bodyPart?.invalid ? [`body: ${bodyPart.note}`] : []),
      ];
      const notes = [...(bodyPart ? [bodyPart.note] : []), ...(sig ? [`signature: ${sig.kind}`] : []), ...queryParts.flatMap((q) => (q?.note ? [q.note] : []))];
      return {
        caller: who,
        method: op.method,
        url: query.length > 0 ? `${pathname}?${query.join('&')}` : pathname,
        headers,
        ...(bodyPart?.payload !== undefined ? { payload: bodyPart.payload } : {}),
        reroutes: pathParts.some((p) => p.reroutes),
        defects,
        notes,
      };
    })
    .filter((call) => mode === 'free' || call.defects.length > 0);
}

// ── the checks ────────────────────────────────────────────────────────────────────────────────────

function documented(op: OperationSpec, call: FuzzCall, status: number): boolean {
  return (
    String(status) in op.responses ||
    `${String(status)[0]}XX` in op.responses ||
    ANY_REQUEST.includes(status) ||
    (call.payload !== undefined && ANY_BODY.includes(status))
  );
}

function checkAnswer(op: OperationSpec, call: FuzzCall, res: LightMyRequestResponse): void {
  const what = `${res.statusCode} ${res.headers['content-type']} ${res.body.slice(0, 300)}\n  for ${describeCall(call)}`;
  const pathname = new URL(call.url, 'http://localhost').pathname;
  const api = pathname.startsWith('/api/') || pathname === '/api';
  const ours = !call.reroutes;
  // a 5xx only where the operation documents it (e.g. 503 without single sign-on)
  if (res.statusCode >= 500) expect(ours && String(res.statusCode) in op.responses, `a ${res.statusCode}: ${what}`).toBe(true);
  if (!api) return;
  if (ours) expect(documented(op, call, res.statusCode), `status not documented for ${op.operationId}: ${what}`).toBe(true);
  if (res.statusCode >= 400) {
    expect(String(res.headers['content-type']), `an error that is not problem+json: ${what}`).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(res.body) as { type?: unknown; status?: unknown };
    expect(CATALOGUE.has(String(problem.type)), `a problem type outside the catalogue: ${what}`).toBe(true);
    expect(problem.status, `the problem's status differs from the answer's: ${what}`).toBe(res.statusCode);
  }
  const refusal = securityRefusal(op, call.caller);
  if (ours && refusal && res.statusCode !== 400) {
    // security is checked before anything else of the request (only a malformed URL is answered first)
    expect({ status: res.statusCode, type: (JSON.parse(res.body) as { type: string }).type }, `the caller's refusal: ${what}`).toEqual(refusal);
  }
  if (res.statusCode === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(res.headers['content-range']));
    expect(range, `206 without a Content-Range: ${what}`).not.toBeNull();
    const [first, last, size] = range!.slice(1).map(Number) as [number, number, number];
    expect(first <= last && last < size && res.rawPayload.length === last - first + 1, `206 of the wrong bytes: ${what}`).toBe(true);
  }
  if (res.statusCode === 416) expect(String(res.headers['content-range']), what).toMatch(/^bytes \*\/\d+$/);
}

// ── the suite ─────────────────────────────────────────────────────────────────────────────────────

describe(`schema fuzzing (fast-check) of every operation of openapi.yaml [${DATABASE}]`, () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let world: SecurityWorld;
  let pools: Pools;
  let sent = 0;
  /** operationId → status → answers, printed at the end: what the run reached */
  const statuses = new Map<string, Map<number, number>>();
  const sentinel = { video: 0, asset: '', tag: 0, user: 0, invitation: 0, upload: '' };

  /** Every row of the tables a request could change (the refused phase compares them request by request). */
  async function snapshot(): Promise<string> {
    const tables = ['users', 'tags', 'videos', 'video_tags', 'video_user_states', 'invitations', 'uploads', 'audit_log', 'view_events'];
    const rows = await Promise.all(tables.map((t) => sql<Record<string, unknown>>`select * from ${sql.table(t)} order by 1, 2`.execute(server.db.kysely)));
    return JSON.stringify(rows.map((r) => r.rows));
  }

  /** The sentinel rows and files, which no request can name (the free phase compares them request by request). */
  async function sentinelState(): Promise<string> {
    const db = server.db.kysely;
    const rows = await Promise.all([
      sql`select * from users where id = ${sentinel.user}`.execute(db),
      sql`select * from tags where id = ${sentinel.tag}`.execute(db),
      sql`select * from videos where id = ${sentinel.video}`.execute(db),
      sql`select * from video_tags where video_id = ${sentinel.video} or tag_id = ${sentinel.tag} order by 1, 2`.execute(db),
      sql`select * from video_user_states where video_id = ${sentinel.video} or user_id = ${sentinel.user} order by 1, 2`.execute(db),
      sql`select * from invitations where id = ${sentinel.invitation}`.execute(db),
      sql`select * from uploads where asset_id in (${sentinel.upload}, ${sentinel.asset})`.execute(db),
      sql`select * from audit_log where (subject_type = 'video' and subject_id = ${String(sentinel.video)}) or (subject_type = 'user' and subject_id = ${String(sentinel.user)})
        or (subject_type = 'invitation' and subject_id = ${String(sentinel.invitation)}) or (subject_type = 'tag' and subject_id = ${String(sentinel.tag)}) order by id`.execute(db),
    ]);
    const files = [sentinel.asset, sentinel.upload].map((asset) => {
      const dir = path.join(server.config.mediaDir, asset);
      return fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((f) => `${f}:${fs.statSync(path.join(dir, f)).size}`) : [];
    });
    return JSON.stringify([rows.map((r) => r.rows), files]);
  }

  async function send(call: FuzzCall): Promise<LightMyRequestResponse> {
    sent += 1;
    const options: InjectOptions = { method: call.method, url: call.url, headers: call.headers, ...(call.payload !== undefined ? { payload: call.payload } : {}) };
    return server.app.inject(options);
  }

  beforeAll(async () => {
    server = await startTestServer(DATABASE, SSO);
    world = await buildSecurityWorld(server);
    const kysely = server.db.kysely;

    // the sentinels: an invisible video of another organisation with a tag of its own and its files, a user, an invitation, an upload
    const [tag] = await ensureTags(kysely, ['Centinela intocable'], now());
    sentinel.tag = tag!.id;
    sentinel.asset = newAsset();
    sentinel.video = (await insertVideo(server.db, { idExterno: sentinel.asset, titulo: 'Centinela', descripcionCorta: 'Nadie lo nombra', nombreUsuarioAlta: 'matriz-admin', organizacion: 'Oeste', isVisible: false, hasThumbnail: true, tagIds: [sentinel.tag] })).id;
    fs.mkdirSync(path.join(server.config.mediaDir, sentinel.asset), { recursive: true });
    for (const [file, bytes] of Object.entries(MEDIA_BYTES)) fs.writeFileSync(path.join(server.config.mediaDir, sentinel.asset, file), bytes);
    sentinel.user = await world.fresh.user({ rol: 'admin' });
    sentinel.invitation = (await world.fresh.invitation()).id;
    sentinel.upload = newAsset();
    await insertUpload(kysely, { asset_id: sentinel.upload, created_at: now(), expires_at: new Date(Date.now() + 3600_000).toISOString(), updated_at: now() });
    for (const [kind, id] of [['videos', sentinel.video], ['tags', sentinel.tag], ['users', sentinel.user], ['invitations', sentinel.invitation], ['uploads', sentinel.upload], ['media', sentinel.asset]] as const) PROTECTED.add(`${kind}:${id}`);
    // the callers stay who they are: no request changes their accounts
    for (const id of [...Object.values(world.ids).filter((id) => id !== world.ids.target), world.accounts.login.id, world.accounts.mfa.id, world.accounts.blocked.id]) PROTECTED.add(`users:${id}`);

    const videos = [world.visibleVideo, world.invisibleVideo, ...(await Promise.all([world.fresh.video(), world.fresh.video({ isVisible: false }), world.fresh.video(), world.fresh.video({ isVisible: false, organizacion: 'Sur' })]))];
    const invitations = await Promise.all([1, 2, 3, 4].map(() => world.fresh.invitation()));
    const uploads = [world.upload.asset];
    for (let i = 0; i < 3; i++) {
      const asset = newAsset();
      await insertUpload(kysely, { asset_id: asset, created_at: now(), expires_at: new Date(Date.now() + 3600_000).toISOString(), updated_at: now() });
      uploads.push(asset);
    }
    const etag = await server.app.inject({ method: 'GET', url: world.sign('GET', `/api/media/${world.visibleVideo.asset}/video.mp4`, Math.floor(Date.now() / 1000) + 3600) });
    pools = {
      videos: videos.map((v) => v.id),
      tags: [world.tagId, ...(await Promise.all([1, 2, 3, 4].map(() => world.fresh.tag())))],
      users: [world.ids.target, ...(await Promise.all([world.fresh.user(), world.fresh.user({ rol: 'admin' }), world.fresh.user()]))],
      invitations: [world.invitationId, ...invitations.map((i) => i.id)],
      invitationTokens: invitations.map((i) => i.token),
      uploads: [...uploads, ...videos.map((v) => v.asset)],
      media: [...videos.map((v) => v.asset), await world.fresh.readyUpload(), newAsset()],
      readyUploads: await Promise.all([1, 2, 3, 4, 5, 6].map(() => world.fresh.readyUpload())),
      etags: [String(etag.headers.etag), `W/${String(etag.headers.etag)}`],
    };
  }, 60_000);

  afterAll(async () => {
    const violations = server.violations;
    await server.close();
    expect(violations, 'responses that do not match openapi.yaml').toEqual([]);
  });

  // Writes that remove rows run last, so the other operations meet the rows first.
  const operations = [...contract.operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

  let properties = 0;
  for (const [index, op] of operations.entries()) {
    for (const mode of ['refused', 'free'] as const) {
      const anyDefect = op.security.length > 0 || op.parameters.length > 0 || op.body !== undefined;
      if (mode === 'refused' && !anyDefect) continue;
      properties += 1;
      it(`${op.operationId} (${op.method} ${op.path}): ${mode === 'refused' ? 'requests with a defect are refused and change nothing' : 'generated and mutated requests: no 5xx, documented problems, sentinels untouched'}`, async () => {
        const seed = SEED + index * 2 + (mode === 'free' ? 1 : 0);
        const property = fc.asyncProperty(callArbitrary(op, mode, world, pools), async (call) => {
          const violations = server.violations.length;
          const before = mode === 'refused' ? await snapshot() : await sentinelState();
          const res = await send(call);
          // Signing out ends the caller's session: the callers stay who they are for the next request.
          if (op.operationId === 'logout') await server.db.kysely.deleteFrom('ended_sessions').execute();
          const counts = statuses.get(op.operationId) ?? new Map<number, number>();
          statuses.set(op.operationId, counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1));
          checkAnswer(op, call, res);
          expect(server.violations.slice(violations), `answers that break openapi.yaml, for ${describeCall(call)}`).toEqual([]);
          if (mode === 'refused') {
            expect(res.statusCode, `a request that must be refused was not: ${res.statusCode} ${res.body.slice(0, 200)}\n  for ${describeCall(call)}`).toBeGreaterThanOrEqual(400);
            expect(await snapshot(), `a refused request changed the database: ${describeCall(call)}`).toBe(before);
          } else {
            expect(await sentinelState(), `a request changed rows it does not name: ${describeCall(call)}`).toBe(before);
          }
        });
        try {
          await fc.assert(property, { seed, numRuns: RUNS });
        } catch (error) {
          throw new Error(`schema fuzzing failed (FUZZ_SEED=${SEED}, this property's seed ${seed}): ${(error as Error).message}`, { cause: error });
        }
        const health = await server.app.inject({ method: 'GET', url: '/api/health' });
        expect(health.statusCode, 'the server answers its health check after the batch').toBe(200);
      });
    }
  }

  it(`sent ${RUNS} requests per operation and phase (FUZZ_RUNS=${RUNS}, FUZZ_SEED=${SEED}); by default over 5,000 in all`, () => {
    const table = [...statuses].map(([id, counts]) => `  ${id.padEnd(17)} ${[...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
    console.info(`schema fuzzing: ${sent} requests, FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS}, ${DATABASE}; answers by operation:\n${table.join('\n')}`);
    expect(sent).toBeGreaterThanOrEqual(properties * RUNS);
    if (process.env.FUZZ_RUNS === undefined) expect(sent).toBeGreaterThanOrEqual(5000);
  });
});
