import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';

describe('notification settings', () => {
  it('leaves every channel but Teams unconfigured by default', () => {
    const { notify } = loadConfig({});
    expect(notify).toMatchObject({
      publicUrl: 'http://localhost:8080',
      smtp: null,
      telegram: null,
      sms: null,
      groupMs: 5000,
      maxAttempts: 6,
    });
  });

  it('reads each channel', () => {
    const { notify } = loadConfig({
      PUBLIC_URL: 'https://console.example/',
      SMTP_URL: 'smtps://mailer:secret@smtp.example:465',
      MAIL_FROM: 'FBOX <alerts@example.com>',
      TELEGRAM_BOT_TOKEN: '123456:ABC-def_1',
      SMS_ACCOUNT_SID: 'AC123',
      SMS_AUTH_TOKEN: 'tok',
      SMS_FROM: '+15551234567',
      NOTIFY_GROUP_SECONDS: '10',
    });
    expect(notify).toMatchObject({
      publicUrl: 'https://console.example',
      smtp: { url: 'smtps://mailer:secret@smtp.example:465', from: 'FBOX <alerts@example.com>' },
      telegram: { apiUrl: 'https://api.telegram.org', token: '123456:ABC-def_1' },
      sms: { url: 'https://api.twilio.com', accountSid: 'AC123', authToken: 'tok', from: '+15551234567' },
      groupMs: 10_000,
    });
  });

  it('names a missing companion setting and never prints a secret', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://u:p@h:25' })).toThrow(
      new ConfigError('Invalid configuration: MAIL_FROM must be set with SMTP_URL'),
    );
    expect(() => loadConfig({ SMS_ACCOUNT_SID: 'AC1', SMS_FROM: '+15551234567' })).toThrow(
      'SMS_AUTH_TOKEN must be set with SMS_ACCOUNT_SID, SMS_FROM',
    );
    expect(() => loadConfig({ SMTP_URL: 'http://u:secret@h', MAIL_FROM: 'a@b.c' })).toThrow(
      'Invalid configuration: SMTP_URL must be smtp://user:pass@host:port or smtps://… (got "***")',
    );
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: 'not a token' })).toThrow(
      /TELEGRAM_BOT_TOKEN .*\(got "\*\*\*"\)/,
    );
  });
});
