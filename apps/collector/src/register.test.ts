import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';
import { agentClientId, readGatewayAccount, writeGatewayAccount } from './register.js';

const scan = [{ range: '10.0.0.1' }];
const mqtt_url = 'mqtt://cloud.example.com:1883';
const agent_key = '0123456789abcdef0123456789abcdef';

const errorOf = (cloud: unknown): string => {
  try {
    parseConfig({ cloud, scan });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('config accepted');
};

describe('cloud section: an FBOX account or the Agent Key, exactly one', () => {
  it('takes the Agent Key form, with the device id to be filled in by registering', () => {
    expect(parseConfig({ cloud: { mqtt_url, agent_key, area_id: 12 }, scan }).cloud).toEqual({
      mqtt_url,
      agent_key,
      area_id: 12,
      device_id: '',
    });
    expect(parseConfig({ cloud: { mqtt_url, device_id: 'FB1', username: 'gw-FB1' }, scan }).cloud).toEqual({
      mqtt_url,
      device_id: 'FB1',
      username: 'gw-FB1',
    });
  });

  it('names the key at fault in one line', () => {
    expect(errorOf({ mqtt_url })).toBe('collector.yaml: cloud.device_id: missing');
    expect(errorOf({ mqtt_url, device_id: 'FB1', agent_key, area_id: 12 })).toBe(
      'collector.yaml: cloud.agent_key: give device_id (an existing FBOX) or agent_key (to register one), not both',
    );
    expect(errorOf({ mqtt_url, agent_key })).toBe(
      'collector.yaml: cloud.area_id: missing (the mine of the Agent Key)',
    );
    expect(errorOf({ mqtt_url, area_id: 12 })).toMatch(/^collector\.yaml: cloud\.agent_key: missing/);
    expect(errorOf({ mqtt_url, agent_key, area_id: 12, password: 'x' })).toMatch(
      /^collector\.yaml: cloud\.password: not with agent_key/,
    );
    expect(errorOf({ mqtt_url, device_id: 'FB1', fbox_name: 'Rack' })).toMatch(
      /^collector\.yaml: cloud\.fbox_name: only with agent_key/,
    );
    expect(errorOf({ mqtt_url, agent_key: 'not-a-key', area_id: 12 })).toMatch(
      /^collector\.yaml: cloud\.agent_key: 32 hex digits/,
    );
    expect(errorOf({ mqtt_url, agent_key, area_id: 12, agent_id: 'a b' })).toMatch(
      /^collector\.yaml: cloud\.agent_id: /,
    );
    expect(errorOf({ mqtt_url, agent_key, area_id: 12, agent_id: 'x'.repeat(60) })).toMatch(
      /^collector\.yaml: cloud\.agent_id: too long/,
    );
    expect(errorOf({ mqtt_url, agent_key, area_id: 12, fbox_name: 'x'.repeat(51) })).toMatch(
      /^collector\.yaml: cloud\.fbox_name: /,
    );
  });
});

describe('agent client id', () => {
  it('is agent-<area>-<agent_id>, else made of the host name', () => {
    expect(agentClientId(12, 'rack-7')).toBe('agent-12-rack-7');
    expect(agentClientId(12, undefined, 'Rack 7.mine.local')).toBe('agent-12-Rack-7-mine-local');
    expect(agentClientId(12, undefined, '...')).toBe('agent-12-collector');
    const long = agentClientId(12, undefined, 'h'.repeat(100));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^agent-12-h+$/);
  });
});

describe('gateway.json', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const stateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'fbox-gateway-json-'));
    dirs.push(dir);
    return join(dir, 'state');
  };

  it('keeps the account readable by its owner only, for the mine and agent it was obtained for', async () => {
    const dir = stateDir();
    expect(await readGatewayAccount(dir, 12, 'agent-12-a')).toBeNull();
    const account = { device_id: 'fb1', username: 'gw-fb1', password: 'secret' };
    await writeGatewayAccount(dir, { area_id: 12, client_id: 'agent-12-a', ...account });
    expect(statSync(join(dir, 'gateway.json')).mode & 0o777).toBe(0o600);
    expect(await readGatewayAccount(dir, 12, 'agent-12-a')).toEqual(account);
    // Another mine or agent id registers anew.
    expect(await readGatewayAccount(dir, 13, 'agent-13-a')).toBeNull();
    expect(await readGatewayAccount(dir, 12, 'agent-12-b')).toBeNull();
    // Rewritten (a new registration) it stays private.
    await writeGatewayAccount(dir, { area_id: 13, client_id: 'agent-13-a', ...account });
    expect(statSync(join(dir, 'gateway.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'gateway.json'), 'utf8'))).toMatchObject({ area_id: 13 });
  });

  it('refuses a damaged file with a sentence saying what to do', async () => {
    const dir = stateDir();
    await writeGatewayAccount(dir, {
      area_id: 12,
      client_id: 'agent-12-a',
      device_id: 'x',
      username: 'u',
      password: 'p',
    });
    writeFileSync(join(dir, 'gateway.json'), '{"area_id": 12');
    await expect(readGatewayAccount(dir, 12, 'agent-12-a')).rejects.toThrow(/delete it to register again/);
  });
});
