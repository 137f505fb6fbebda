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
