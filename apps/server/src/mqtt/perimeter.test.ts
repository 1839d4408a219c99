import { connect as tcpConnect } from 'node:net';
import { topics } from '@fbox/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../test/factories.js';
import { brokerUrl, connectGateway, telemetry, waitFor } from '../test/mqtt-client.js';
import { mqttLoginRule } from './login-throttle.js';

/** An MQTT fixed header announcing `length` bytes to follow. */
const header = (type: number, length: number): Buffer => {
  const bytes = [type];
  let n = length;
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return Buffer.from(bytes);
};

/** Sends a header announcing a huge packet, then streams its body; resolves with what happened. */
const announceHuge = (port: number, type: number) =>
  new Promise<{ closed: boolean; sentBytes: number }>((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    let sentBytes = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, sentBytes });
    }, 3000);
    socket.on('connect', () => {
      socket.write(header(type, 200 * 1024 * 1024));
      const pump = () => {
        while (!socket.destroyed && sentBytes < 8 * 1024 * 1024) {
          sentBytes += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closed: true, sentBytes });
    });
  });

describeDb('MQTT perimeter of the embedded broker', () => {
  let t: TestApp;
  let fbox: CreatedFbox;
  let foreign: CreatedFbox;
  const clients: MqttClient[] = [];

  beforeEach(async () => {
    t = await buildTestApp({ mqtt: 'embedded', config: { mqttMaxPacketBytes: 256 * 1024 } });
    fbox = await createFbox(t.app, (await createArea(t.app, (await createMaster(t.app)).id)).id);
    foreign = await createFbox(t.app, (await createArea(t.app, (await createMaster(t.app)).id)).id);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.end(true);
    await t.close();
  });

  it('closes a connection whose first packet announces 200 MB, before reading it', async () => {
    const port = t.app.mqttBroker!.port;
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => announceHuge(port, 0x10)));
    for (const outcome of outcomes) {
      expect(outcome.closed).toBe(true);
      // Closed on the header: far less than the announced size got through.
      expect(outcome.sentBytes).toBeLessThan(8 * 1024 * 1024);
    }
    await waitFor(() => t.app.ingest.stats().rejected >= 6);
  });

  it('closes a connection that never logs in', async () => {
    const socket = tcpConnect(t.app.mqttBroker!.port, '127.0.0.1');
    socket.on('error', () => {});
    const opened = Date.now();
    await new Promise((resolve) => socket.once('close', resolve));
    // aedes' connect timeout (10 s; it was 30 s): an idle socket holds nothing for long.
    expect(Date.now() - opened).toBeLessThan(15_000);
  }, 20_000);

  it('lets a logged-in gateway send up to the limit, and disconnects it above', async () => {
    const gateway = await connectGateway(t.app, fbox);
    clients.push(gateway);
    await gateway.publishAsync(
      topics.telemetry(fbox.device_id),
      JSON.stringify(telemetry({ seq: 1, ts: t.clock.ms, miners: 200 })),
      { qos: 1 },
    );
    expect(t.app.ingest.stats().samples).toBe(200);
    const closed = new Promise<void>((resolve) => gateway.once('close', () => resolve()));
    gateway.publish(topics.telemetry(fbox.device_id), Buffer.alloc(300 * 1024, 0x20), { qos: 1 });
    await closed;
    expect(t.app.ingest.stats()).toMatchObject({ messages: 1, samples: 200 });
  });

  it("refuses another box's client id, and the box it belongs to stays connected", async () => {
    const victim = await connectGateway(t.app, fbox);
    clients.push(victim);
    let kicked = false;
    victim.on('close', () => {
      kicked = true;
    });
    // Valid credentials of another tenant's box with the victim's client id.
    await expect(connectGateway(t.app, foreign, { clientId: fbox.device_id })).rejects.toThrow(
      /Identifier rejected/,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(kicked).toBe(false);
    await victim.publishAsync(
      topics.telemetry(fbox.device_id),
      JSON.stringify(telemetry({ seq: 1, ts: t.clock.ms, miners: 1 })),
      { qos: 1 },
    );
    expect(t.app.ingest.stats().samples).toBe(1);
  });

  it('shuts out an address after repeated failed logins, for a while', async () => {
    const attempt = (password: string) =>
      connectAsync(brokerUrl(t.app), {
        username: fbox.mqtt_username,
        password,
        clientId: fbox.device_id,
        reconnectPeriod: 0,
        connectTimeout: 2000,
      });
    for (let i = 0; i < mqttLoginRule.maxFailures; i++) await expect(attempt('wrong')).rejects.toThrow();
    // Even the right password is not checked now.
    await expect(attempt(fbox.mqtt_password)).rejects.toThrow();
    t.clock.advance(mqttLoginRule.blockMs + 1000);
    const back = await attempt(fbox.mqtt_password);
    clients.push(back);
    expect(back.connected).toBe(true);
  });
});
