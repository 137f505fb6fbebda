import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration: SMTP for invitation e-mails', () => {
  it('e-mails nothing without SMTP_URL', () => {
    expect(loadConfig({}).smtp).toBeUndefined();
  });

  it('takes SMTP_URL (smtp:// or smtps://) with SMTP_FROM', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@mail.example.org:587', SMTP_FROM: 'TAO <videos@example.org>' }).smtp).toEqual({
      url: 'smtp://u:p@mail.example.org:587',
      from: 'TAO <videos@example.org>',
    });
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.org', SMTP_FROM: 'videos@example.org' }).smtp?.url).toBe('smtps://mail.example.org');
  });

  it('refuses one without the other, and an address that is not SMTP', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.org' })).toThrow(/SMTP_FROM/);
    expect(() => loadConfig({ SMTP_FROM: 'videos@example.org' })).toThrow(/SMTP_URL is not/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.org', SMTP_FROM: 'videos@example.org' })).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(() => loadConfig({ SMTP_URL: 'not a url', SMTP_FROM: 'videos@example.org' })).toThrow(/SMTP_URL must be a URL/);
  });
});

describe('configuration: media in an S3 bucket', () => {
  it('keeps media in MEDIA_DIR without S3_BUCKET', () => {
    expect(loadConfig({}).s3).toBeUndefined();
  });

  it('takes S3_BUCKET with the endpoint, region (default us-east-1), keys, path style and prefix', () => {
    expect(loadConfig({ S3_BUCKET: 'tao-media' }).s3).toEqual({ endpoint: undefined, bucket: 'tao-media', region: 'us-east-1', credentials: undefined, forcePathStyle: false, prefix: '' });
    expect(
      loadConfig({
        S3_BUCKET: 'tao-media',
        S3_ENDPOINT: 'https://acc0123.r2.cloudflarestorage.com/',
        S3_REGION: 'auto',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: '/tao/media/',
      }).s3,
    ).toEqual({
      endpoint: 'https://acc0123.r2.cloudflarestorage.com',
      bucket: 'tao-media',
      region: 'auto',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: true,
      prefix: 'tao/media/',
    });
  });

  it('stops at start with a clear message on a mistake', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_ENDPOINT is set but S3_BUCKET is not/);
    expect(() => loadConfig({ S3_BUCKET: 'Tao_Media' })).toThrow(/S3_BUCKET must be a bucket name/);
    expect(() => loadConfig({ S3_BUCKET: 'tao-media', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT must/);
    expect(() => loadConfig({ S3_BUCKET: 'tao-media', S3_ACCESS_KEY_ID: 'key' })).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/);
    expect(() => loadConfig({ S3_BUCKET: 'tao-media', S3_FORCE_PATH_STYLE: 'yes please' })).toThrow(/S3_FORCE_PATH_STYLE must be true or false/);
    expect(() => loadConfig({ S3_BUCKET: 'tao-media', S3_PREFIX: 'a b' })).toThrow(/S3_PREFIX/);
  });
});

describe('configuration: the processing lease of several instances', () => {
  it('lasts 60 s unless PROCESSING_LEASE_SECONDS says otherwise, from 10 s to an hour', () => {
    expect(loadConfig({}).processingLeaseSeconds).toBe(60);
    expect(loadConfig({ PROCESSING_LEASE_SECONDS: '15' }).processingLeaseSeconds).toBe(15);
    expect(loadConfig({ PROCESSING_LEASE_SECONDS: '3600' }).processingLeaseSeconds).toBe(3600);
    expect(() => loadConfig({ PROCESSING_LEASE_SECONDS: '9' })).toThrow(/PROCESSING_LEASE_SECONDS must be an integer from 10 to 3600 \(got "9"\)/);
    expect(() => loadConfig({ PROCESSING_LEASE_SECONDS: '1.5' })).toThrow(/PROCESSING_LEASE_SECONDS/);
  });
});

describe('configuration: processing on this instance', () => {
  it('processes videos unless PROCESSING=off, and refuses other values (R-OPS-5)', () => {
    expect(loadConfig({}).processing).toBe(true);
    expect(loadConfig({ PROCESSING: 'on' }).processing).toBe(true);
    expect(loadConfig({ PROCESSING: 'off' }).processing).toBe(false);
    expect(loadConfig({ PROCESSING: ' OFF ' }).processing).toBe(false);
    expect(() => loadConfig({ PROCESSING: 'false' })).toThrow(/PROCESSING must be on or off \(got "false"\)/);
  });
});
