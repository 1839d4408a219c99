import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  listenOnFreeFallback,
  mqttFallbackMessage,
  onPortTaken,
  PortInUseError,
  portInUseMessage,
} from './ports.js';

const servers: Server[] = [];
const open = () => {
  const server = createServer();
  servers.push(server);
  return server;
};
const portOf = (server: Server) => (server.address() as { port: number }).port;

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('port decisions', () => {
  it('fails for a chosen port, falls back only for the default MQTT port', () => {
    expect(onPortTaken('HTTP', 8080, false)).toBe('fail');
    expect(onPortTaken('HTTP', 8080, true)).toBe('fail');
    expect(onPortTaken('MQTT', 1883, true)).toBe('fail');
    expect(onPortTaken('MQTT', 1883, false)).toBe('fallback');
  });

  it('says clearly what to do', () => {
    expect(portInUseMessage('HTTP', 8080)).toBe('HTTP port 8080 is already in use — set PORT to a free port');
    expect(portInUseMessage('MQTT', 1884)).toBe(
      'MQTT port 1884 is already in use — set MQTT_PORT to a free port',
    );
    expect(mqttFallbackMessage(1883, 40000)).toBe(
      'MQTT port 1883 is in use by another program; the embedded broker listens on 40000 instead; set MQTT_PORT or MQTT_URL to choose',
    );
  });

  it('reports a taken explicit port and falls back with a warning otherwise', async () => {
    const taken = open();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = portOf(taken);
    const warnings: string[] = [];
    const log = { warn: (m: string) => warnings.push(m) };

    await expect(
      listenOnFreeFallback(open(), { name: 'MQTT', port, explicit: true, host: '127.0.0.1' }, log),
    ).rejects.toThrow(new PortInUseError(portInUseMessage('MQTT', port)));

    const actual = await listenOnFreeFallback(
      open(),
      { name: 'MQTT', port, explicit: false, host: '127.0.0.1' },
      log,
    );
    expect(actual).not.toBe(port);
    expect(warnings).toEqual([mqttFallbackMessage(port, actual)]);
  });
});
