// SMTP_URL and SMTP_FROM: e-mail notifications are off without SMTP_URL; a bad value stops the
// start with a sentence that never repeats the URL (it may hold a password).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, smtpFrom } from '../../../server/config.ts';

describe('SMTP_URL and SMTP_FROM', () => {
  it('leave e-mail off when SMTP_URL is unset or empty', () => {
    expect(loadConfig({ DATA_DIR: 'memory://' }).smtp).toBeUndefined();
    expect(smtpFrom({ SMTP_URL: ' ', SMTP_FROM: 'alerts@example.com' })).toBeUndefined();
  });

  it('take smtp:// and smtps:// with credentials, and a sender with or without a name', () => {
    expect(loadConfig({ DATA_DIR: 'memory://', SMTP_URL: 'smtp://alerts:s3cret@mail.example.com:587', SMTP_FROM: 'Terrasight <alerts@example.com>' }).smtp)
      .toEqual({ url: 'smtp://alerts:s3cret@mail.example.com:587', from: 'Terrasight <alerts@example.com>' });
    expect(smtpFrom({ SMTP_URL: 'smtps://mail.example.com', SMTP_FROM: 'alerts@example.com' })).toEqual({ url: 'smtps://mail.example.com', from: 'alerts@example.com' });
  });

  it('refuse another scheme or a URL that does not parse, without repeating it', () => {
    for (const url of ['http://user:hunter2@mail.example.com', 'mail.example.com:25', 'smtp://', 'smtp://user:hunter2@']) {
      const attempt = () => smtpFrom({ SMTP_URL: url, SMTP_FROM: 'alerts@example.com' });
      expect(attempt, url).toThrow(ConfigError);
      expect(attempt, url).toThrow(/^SMTP_URL must be smtp:\/\//);
      expect(attempt, url).not.toThrow(/hunter2/);
    }
  });

  it('need a sender address with SMTP_URL', () => {
    expect(() => smtpFrom({ SMTP_URL: 'smtp://mail.example.com' })).toThrow(/SMTP_FROM .* \(required with SMTP_URL\)/);
    for (const from of ['Terrasight', 'a@b.c\nBcc: victim@example.com', 'Terrasight <alerts@example.com', 'two@example.com, three@example.com']) {
      expect(() => smtpFrom({ SMTP_URL: 'smtp://mail.example.com', SMTP_FROM: from }), from).toThrow(ConfigError);
    }
  });
});
