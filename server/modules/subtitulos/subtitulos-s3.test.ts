import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { call, startTestServer, type TestServer } from '../../../tests/utils/server-harness.ts';
import { startMotoServer, type MotoBucket } from '../../storage/moto-server.test-support.ts';
import { addVideo, assetId, createUser, type LibraryUser } from '../videos/videos.test-support.ts';

type Subtitulo = components['schemas']['Subtitulo'];

const PREFIX = 'tao-subtitulos';
const moto = await startMotoServer();
afterAll(() => moto.close());

/** Subtitle tracks with the media in S3 (R-MED-12, R-ADM-5): stored, served, replaced and removed in the bucket. */
describe(`subtitle tracks with media in S3 on ${moto.name}`, () => {
  let s3: MotoBucket;
  let server: TestServer & { close(): Promise<void> };
  let admin: LibraryUser;

  beforeAll(async () => {
    s3 = await moto.newBucket();
    server = await startTestServer('sqlite', s3.env(PREFIX));
    admin = await createUser(server, 'gestora', { rol: 'admin' });
  }, 60_000);
  afterAll(async () => {
    const violations = server?.violations ?? [];
    await server?.close();
    expect(violations, 'responses that do not match openapi.yaml').toEqual([]);
  });

  async function bucketKeys(): Promise<string[]> {
    const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3.credentials });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${PREFIX}/` }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    } finally {
      client.destroy();
    }
  }

  it('stores the normalised file in the bucket, serves it, replaces it and removes it', async () => {
    const asset = assetId();
    const id = await addVideo(server, { titulo: 'Vídeo en el almacén S3', idExterno: asset, duracion: 60 });
    const put = (body: string) =>
      call(server.app, { method: 'PUT', url: `/api/videos/${id}/subtitulos/pt-BR`, token: admin.session, headers: { 'content-type': 'application/x-subrip' }, payload: body });
    expect((await put('1\r\n00:00:01,000 --> 00:00:02,000\r\nOlá\r\n')).statusCode).toBe(201);
    expect(await bucketKeys()).toEqual([`${PREFIX}/${asset}/subtitulos-pt-br.vtt`]);
    expect((await put('1\r\n00:00:03,000 --> 00:00:04,000\r\nTchau\r\n')).statusCode).toBe(200);

    const [track] = (await call(server.app, { method: 'GET', url: `/api/videos/${id}/subtitulos`, token: admin.session })).json() as Subtitulo[];
    const file = await server.app.inject({ method: 'GET', url: track!.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(file.body).toBe('WEBVTT\n\n00:00:03.000 --> 00:00:04.000\nTchau\n');
    const range = await server.app.inject({ method: 'GET', url: track!.url, headers: { range: 'bytes=0-5' } });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe('WEBVTT');

    expect((await call(server.app, { method: 'DELETE', url: `/api/videos/${id}/subtitulos/pt-BR`, token: admin.session })).statusCode).toBe(204);
    expect(await bucketKeys()).toEqual([]);
    expect((await server.app.inject({ method: 'GET', url: track!.url })).statusCode).toBe(404);
  });
});
