import { topics } from '@fbox/contracts';
import type { CreatedFbox } from '../devices/device.service.js';
import type { TestApp, TestBroker } from './build-test-app.js';
import { brokerUrl, connectGateway } from './mqtt-client.js';

/** What the collector end-to-end tests share: the cloud section of its config, its clock, the clean-up. */

type Fbox = Pick<CreatedFbox, 'device_id' | 'mqtt_username' | 'mqtt_password'>;

/** `cloud:` of collector.yaml for reporting as `fbox` to the test app's broker. */
export const cloudOf = (t: TestApp, fbox: Fbox) => ({
  mqtt_url: brokerUrl(t.app),
  device_id: fbox.device_id,
  username: fbox.mqtt_username,
  password: fbox.mqtt_password,
});

/** The collector's clock: the app's, running on in real time (ingest refuses times far from its own). */
export const collectorClock = (t: TestApp): (() => number) => {
  const started = Date.now();
  return () => t.clock.now() + (Date.now() - started);
};

/** Retained messages outlive the test on a shared Mosquitto: clears the status and hello the collector set. */
export const clearRetained = async (t: TestApp, fbox: Fbox, broker: TestBroker) => {
  if (broker !== 'external') return;
  const client = await connectGateway(t.app, fbox);
  for (const topic of [topics.status(fbox.device_id), topics.hello(fbox.device_id)])
    await client.publishAsync(topic, '', { retain: true, qos: 1 });
  await client.endAsync();
};
