import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, configVariables, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      mqttPort: 1883,
      mqttPortExplicit: false,
      mqttUrl: undefined,
      dataDir: './data',
      databaseUrl: undefined,
      ingestWriterThread: 'auto',
      adminUser: 'admin',
      adminPassword: undefined,
      demo: true,
      logLevel: 'info',
      sessionTtlMinutes: 1440,
      trustProxy: false,
    });
    expect(config.webDist).toMatch(/apps\/web\/dist$/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '0',
      MQTT_PORT: '1884',
      MQTT_URL: 'mqtts://broker.example:8883',
      DATABASE_URL: 'postgresql://u@h/db',
      ADMIN_PASSWORD: 'longenough',
      DEMO: '0',
      INGEST_WRITER_THREAD: '0',
      TRUST_PROXY: '1',
      SESSION_TTL_MINUTES: '30',
      SESSION_MAX_HOURS: '12',
    });
    expect(config).toMatchObject({
      port: 0,
      mqttPort: 1884,
      mqttPortExplicit: true,
      mqttUrl: 'mqtts://broker.example:8883',
      databaseUrl: 'postgresql://u@h/db',
      adminPassword: 'longenough',
      demo: false,
      ingestWriterThread: false,
      trustProxy: true,
      sessionTtlMinutes: 30,
      sessionMaxHours: 12,
    });
  });

  it('names the wrong variable in one line', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(
      new ConfigError('Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")'),
    );
    expect(() => loadConfig({ PORT: '70000' })).toThrow(
      'PORT must be an integer from 0 to 65535 (got "70000")',
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/^Invalid configuration: DATABASE_URL/);
    expect(() => loadConfig({ MQTT_URL: 'http://x' })).toThrow(/MQTT_URL must start with mqtt:\/\//);
    expect(() => loadConfig({ DEMO: 'yes' })).toThrow('DEMO must be 0 or 1 (got "yes")');
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(
      'Invalid configuration: ADMIN_PASSWORD must be at least 8 characters (got "***")',
    );
  });

  it('accepts exactly the ports 0..65535', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (value) => {
        const valid = /^\d+$/.test(value) && Number(value) <= 65535;
        if (value === '') return; // empty counts as unset
        if (valid) expect(loadConfig({ PORT: value }).port).toBe(Number(value));
        else expect(() => loadConfig({ PORT: value })).toThrow(ConfigError);
      }),
    );
  });

  it('reads SECRET_KEY and SECRET_KEY_PREVIOUS as 32-byte keys, never echoing them', () => {
    const key = randomBytes(32);
    const old = [randomBytes(32), randomBytes(32)];
    expect(loadConfig({})).toMatchObject({ secretKey: undefined, previousSecretKeys: [] });
    expect(
      loadConfig({
        SECRET_KEY: key.toString('base64'),
        SECRET_KEY_PREVIOUS: `${old[0]!.toString('hex')}, ${old[1]!.toString('base64')}`,
      }),
    ).toMatchObject({ secretKey: key, previousSecretKeys: old });
    expect(() => loadConfig({ SECRET_KEY: 'abc' })).toThrow(
      'Invalid configuration: SECRET_KEY must be 32 bytes as 64 hex digits or base64 (got "***")',
    );
    expect(() => loadConfig({ SECRET_KEY_PREVIOUS: `${key.toString('hex')},x` })).toThrow(
      'Invalid configuration: SECRET_KEY_PREVIOUS must be a comma-separated list of 32-byte keys (hex or base64) (got "***")',
    );
  });

  it('documents every variable it reads', () => {
    expect(configVariables.map((v) => v.name)).toContain('SESSION_TTL_MINUTES');
    expect(new Set(configVariables.map((v) => v.name)).size).toBe(configVariables.length);
  });

  it('is listed in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const v of configVariables) expect(readme).toMatch(new RegExp(`\\| \`${v.name}\` +\\|`));
  });
});
