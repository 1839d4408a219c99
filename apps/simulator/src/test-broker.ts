/**
 * Test helpers: an in-process aedes broker that authenticates FBOX accounts and confines each gateway
 * to `fbox/<its clientId>/…`, and a recording subscriber. Not exported from the package.
 */

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import { connect, type MqttClient } from 'mqtt';

export const CLOUD = { username: 'cloud', password: 'cloud-secret' } as const;

export interface TestBroker {
  url: string;
  /** Register an FBOX account: clientId = deviceId. */
  addDevice(deviceId: string, username: string, password: string): void;
  /** Publishes and subscriptions refused by the topic ACL. */
  refused: string[];
  close(): Promise<void>;
}

export const startTestBroker = async (): Promise<TestBroker> => {
  const devices = new Map<string, { username: string; password: string }>();
  const refused: string[] = [];
  const isCloud = (username: string | undefined) => username === CLOUD.username;
  const clientUsers = new Map<string, string | undefined>();
  const allowed = (clientId: string, topic: string) =>
    isCloud(clientUsers.get(clientId)) || topic.startsWith(`fbox/${clientId}/`);
  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const given = password?.toString('utf8');
      const device = devices.get(client.id);
      const ok =
        (isCloud(username) && given === CLOUD.password) ||
        (device !== undefined && device.username === username && device.password === given);
      if (!ok) {
        const error = Object.assign(new Error('Bad username or password'), {
          returnCode: 4,
        }) as AuthenticateError;
        done(error, false);
        return;
      }
      clientUsers.set(client.id, username);
      done(null, true);
    },
    authorizePublish: (client, packet, callback) => {
      if (client && !allowed(client.id, packet.topic)) {
        refused.push(`pub ${client.id} ${packet.topic}`);
        callback(new Error('topic not allowed'));
        return;
      }
      callback(null);
    },
    authorizeSubscribe: (client, subscription, callback) => {
      if (!allowed(client.id, subscription.topic)) {
        refused.push(`sub ${client.id} ${subscription.topic}`);
        callback(new Error('topic not allowed'));
        return;
      }
      callback(null, subscription);
    },
  });
  const server = createServer(aedes.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    addDevice: (deviceId, username, password) => devices.set(deviceId, { username, password }),
    refused,
    close: async () => {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export interface Received {
  topic: string;
  payload: string;
  retain: boolean;
}

export interface Recorder {
  client: MqttClient;
  messages: Received[];
  /** Wait for a message matching `predicate` (already received or coming), in arrival order from `from`. */
  waitFor(predicate: (m: Received) => boolean, timeoutMs?: number, from?: number): Promise<Received>;
  publish(topic: string, payload: unknown): Promise<void>;
  close(): Promise<void>;
}

export const startRecorder = async (
  url: string,
  topic: string,
  credentials?: { username: string; password: string },
): Promise<Recorder> => {
  const client = connect(url, {
    clientId: `rec-${process.pid}-${Date.now().toString(36)}-${Math.floor(performance.now() * 1000) % 1e6}`,
    ...credentials,
    reconnectPeriod: 0,
  });
  const messages: Received[] = [];
  const waiters = new Set<() => void>();
  client.on('message', (t, payload, packet) => {
    messages.push({ topic: t, payload: payload.toString('utf8'), retain: packet.retain });
    for (const w of waiters) w();
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await client.subscribeAsync(topic, { qos: 1 });
  return {
    client,
    messages,
    waitFor: (predicate, timeoutMs = 5000, from = 0) =>
      new Promise<Received>((resolve, reject) => {
        const check = () => {
          const found = messages.slice(from).find(predicate);
          if (found) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for a message (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    publish: async (t, payload) => {
      await client.publishAsync(t, typeof payload === 'string' ? payload : JSON.stringify(payload), {
        qos: 1,
      });
    },
    close: async () => {
      await client.endAsync();
    },
  };
};
