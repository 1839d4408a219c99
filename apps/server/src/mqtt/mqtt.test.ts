import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { describeDb, openTestDatabase } from '../test/build-test-app.js';

/** A minimal MQTT 3.1.1 CONNECT packet (client id "t", username "u", password "p"). */
const connectPacket = Buffer.from([
  0x10, 0x13, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0xc2, 0x00, 0x3c, 0x00, 0x01, 0x74, 0x00, 0x01, 0x75,
  0x00, 0x01, 0x70,
]);

describeDb('embedded MQTT broker', () => {
  it('binds its port, refuses unknown accounts, and closes with the app', async () => {
    const app = await buildApp({
      logger: false,
      mqtt: true,
      seed: false,
      database: await openTestDatabase(),
      config: { mqttPort: 0, mqttPortExplicit: true, host: '127.0.0.1', webDist: '/nonexistent' },
    });
    const port = app.mqttBroker!.port;
    expect(port).toBeGreaterThan(0);
    const connack = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(connectPacket));
      socket.once('data', (data) => {
        resolve(data);
        socket.destroy();
      });
      socket.once('error', reject);
    });
    // CONNACK with return code 4: bad user name or password.
    expect([...connack.subarray(0, 4)]).toEqual([0x20, 0x02, 0x00, 0x04]);
    await app.close();
    await expect(
      new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => resolve(socket.destroy()));
        socket.once('error', reject);
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
