import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Collector,
  type FakeMiner,
  parseConfig,
  resolveCloudAccount,
  startCollector,
  startFakeMiner,
} from '@fbox/collector';
import { agentClientIdPrefix, agentTopics, topics } from '@fbox/contracts';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp, testBrokers } from '../test/build-test-app.js';
import { createArea, createMaster, login, post, type TestUser } from '../test/factories.js';
import { brokerUrl, spreadAreaIds, waitFor } from '../test/mqtt-client.js';

/**
 * A collector configured with nothing but its mine's Agent Key: it registers an FBOX of its own over
 * MQTT, keeps the account in `gateway.json`, reports its miners as that FBOX's gateway, and started
 * again reuses the account without registering.
 */
describeDb('site collector registering with the Agent Key', () => {
  for (const broker of testBrokers) describe(`${broker} broker`, () => suite(broker));
});

const suite = (broker: (typeof testBrokers)[number]) => {
  let t: TestApp;
  let master: TestUser;
  let areaId: number;
  let agentKey: string;
  let stateDir: string;
  let fake: FakeMiner;
  const collectors: Collector[] = [];
  const noop = () => {};
  const logger = { debug: noop, info: noop, warn: noop, error: noop };

  const config = (cloud: Record<string, unknown> = {}) =>
    parseConfig({
      cloud: {
        mqtt_url: brokerUrl(t.app),
        agent_key: agentKey,
        area_id: areaId,
        fbox_name: 'Rack 7 collector',
        agent_id: 'rack-7',
        ...cloud,
      },
      scan: [{ range: fake.host, port: fake.port }],
      poll_interval_s: 60,
      concurrency: { poll: 2, scan: 8 },
      timeouts: { connect_ms: 500, request_ms: 1000, scan_ms: 1000 },
      state_dir: stateDir,
    });
  /** Telemetry is stamped near the app's clock, later with each collector (latest state follows `ts`). */
  const started = Date.now();
  const start = async (resolved: ReturnType<typeof parseConfig>) => {
    const collector = await startCollector({
      config: resolved,
      noStateFile: true,
      now: () => t.clock.now() + (Date.now() - started),
      logger,
    });
    collectors.push(collector);
    return collector;
  };
  const fboxes = () =>
    t.app.db
      .selectFrom('fboxes')
      .select(['id', 'name', 'kind', 'device_id'])
      .where('area_id', '=', areaId)
      .execute();
  const minerOf = async (fboxId: number) => {
    await t.app.ingest.flush();
    return t.app.db.selectFrom('miner_state').selectAll().where('fbox_id', '=', fboxId).executeTakeFirst();
  };

  beforeAll(async () => {
    t = await buildTestApp({ mqtt: broker });
    if (broker === 'external') await spreadAreaIds(t.app);
    master = await createMaster(t.app);
    areaId = (await createArea(t.app, master.id)).id;
    const stored = await t.app.db
      .selectFrom('areas')
      .select('agent_key')
      .where('id', '=', areaId)
      .executeTakeFirstOrThrow();
    agentKey = t.app.secrets.open(stored.agent_key);
    stateDir = mkdtempSync(join(tmpdir(), 'fbox-collector-register-'));
    fake = await startFakeMiner({ flavor: 'antminer', id: 'a1b2c3d4e5f67777', hashrateTh: 100.5 });
  });

  afterAll(async () => {
    for (const collector of collectors) await collector.stop();
    await fake?.stop();
    if (broker === 'external' && t) {
      // Retained messages outlive the test on a shared Mosquitto: clear what the collector set.
      const client = await connectAsync(brokerUrl(t.app), { reconnectPeriod: 0 });
      const clientId = `${agentClientIdPrefix(areaId)}rack-7`;
      const retained = [agentTopics.status(areaId, clientId), agentTopics.hello(areaId, clientId)];
      for (const box of await fboxes())
        retained.push(topics.status(box.device_id), topics.hello(box.device_id));
      for (const topic of retained) await client.publishAsync(topic, '', { retain: true, qos: 1 });
      await client.endAsync();
    }
    await t?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('registers its own FBOX, keeps the account in gateway.json and reports its miners', async () => {
    const resolved = await resolveCloudAccount(config(), { logger, timeoutMs: 10_000 });
    const [box, ...others] = await fboxes();
    expect(others).toEqual([]);
    expect(box).toMatchObject({ name: 'Rack 7 collector', kind: 'air' });
    expect(resolved.cloud).toMatchObject({ device_id: box!.device_id, username: `gw-${box!.device_id}` });
    const file = join(stateDir, 'gateway.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      area_id: areaId,
      client_id: `${agentClientIdPrefix(areaId)}rack-7`,
      device_id: box!.device_id,
      password: resolved.cloud.password,
    });

    const collector = await start(resolved);
    await waitFor(async () => (await minerOf(box!.id))?.hashrate_realtime === 100.5, 10_000);
    expect(await minerOf(box!.id)).toMatchObject({ sn: 'a1b2c3d4e5f67777', online: 1, brand: 'Antminer' });
    await collector.stop();
  });

  it('started again, reports with the kept account and registers nothing', async () => {
    const [box] = await fboxes();
    // The key is not even used: a wrong one would be refused if the collector logged in as the agent.
    const resolved = await resolveCloudAccount(config({ agent_key: 'f'.repeat(32) }), {
      logger,
      timeoutMs: 2000,
    });
    expect(resolved.cloud.device_id).toBe(box!.device_id);
    fake.options = { ...fake.options, hashrateTh: 97.25 };
    await start(resolved);
    await waitFor(async () => (await minerOf(box!.id))?.hashrate_realtime === 97.25, 10_000);
    expect(await fboxes()).toHaveLength(1);
    const created = await t.app.db
      .selectFrom('operation_log')
      .select('id')
      .where('action', '=', 'fboxCreate')
      .execute();
    expect(created).toHaveLength(1);
  });

  if (broker === 'external') return;

  it('registers a new FBOX at the next start once its FBOX was deleted in the console', async () => {
    for (const collector of collectors.splice(0)) await collector.stop();
    const [box] = await fboxes();
    const token = await login(t.app, master);
    const deleted = await post(
      t.app,
      '/index/fbox.boxlist/deleted',
      { area_id: areaId, id: box!.id },
      { token },
    );
    expect(deleted.json().code).toBe(1);
    const resolved = await resolveCloudAccount(config(), { logger, timeoutMs: 10_000 });
    const [fresh, ...others] = await fboxes();
    expect(others).toEqual([]);
    expect(fresh!.device_id).not.toBe(box!.device_id);
    expect(resolved.cloud.device_id).toBe(fresh!.device_id);
    expect(JSON.parse(readFileSync(join(stateDir, 'gateway.json'), 'utf8')).device_id).toBe(fresh!.device_id);
  });

  it('stops with one clear line when the Agent Key is wrong', async () => {
    await expect(
      resolveCloudAccount(config({ agent_id: 'rack-8', agent_key: 'f'.repeat(32) }), {
        logger,
        timeoutMs: 5000,
      }),
    ).rejects.toThrow('the cloud refused the Agent Key: check cloud.agent_key and cloud.area_id');
  });
};
