import { agentClientIdPrefix, agentTopics, agentUsername, Code, topics } from '@fbox/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp, testBrokers } from '../../test/build-test-app.js';
import {
  createArea,
  createFbox,
  createMaster,
  createSubAccount,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';
import { brokerUrl, connectGateway, waitFor } from '../../test/mqtt-client.js';

const CLIENTS = '/index/fbox.area/clients';
const REVOKE = '/index/fbox.area/revoke_client';

interface Record {
  id: number;
  kind: string;
  client_key: string;
  client_id: string;
  ip: string;
  computer_name: string;
  online: boolean;
  revoked_at: number | null;
}

/** Resolves when the broker closes the client's connection. */
const closed = (client: MqttClient) => new Promise<void>((resolve) => client.once('close', () => resolve()));

describeDb('client key records (embedded broker)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let fbox: CreatedFbox;
  const clients: MqttClient[] = [];
  beforeEach(async () => {
    t = await buildTestApp({ mqtt: 'embedded' });
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id, 'Site')).id;
    fbox = await createFbox(t.app, areaId, { name: 'Box A' });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.endAsync(true);
    await t.close();
  });

  const records = async (tk = token): Promise<Record[]> => {
    await t.app.mqttClients!.drain();
    const res = (await get(t.app, CLIENTS, { area_id: String(areaId) }, { token: tk })).json();
    expect(res).toMatchObject({ code: 1, data: { broker: 'embedded' } });
    return res.data.items;
  };
  const storedAgentKey = async () =>
    (
      await t.app.db
        .selectFrom('areas')
        .select('agent_key')
        .where('id', '=', areaId)
        .executeTakeFirstOrThrow()
    ).agent_key;
  /** The Agent Key as the mine's page shows it (stored encrypted, see secrets/). */
  const agentKey = async () => t.app.secrets.open(await storedAgentKey());
  /** An agent's client id: its mine's prefix and a name of its own. */
  const agentId = (name: string) => `${agentClientIdPrefix(areaId)}${name}`;
  const connectAgent = (clientId: string, password: string) =>
    connectAsync(brokerUrl(t.app), {
      clientId,
      username: agentUsername(areaId),
      password,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });

  it('records a gateway from its real connection and hello, offline after it leaves', async () => {
    const gateway = await connectGateway(t.app, fbox, { clientId: fbox.device_id });
    clients.push(gateway);
    await gateway.publishAsync(
      topics.hello(fbox.device_id),
      JSON.stringify({ computer_name: 'rack-7', version: '1.2.0' }),
      { qos: 1, retain: true },
    );
    await waitFor(async () => (await records())[0]?.computer_name === 'rack-7');
    expect(await records()).toEqual([
      expect.objectContaining({
        kind: 'gateway',
        client_key: fbox.mqtt_username,
        client_id: fbox.device_id,
        ip: '127.0.0.1',
        computer_name: 'rack-7',
        version: '1.2.0',
        fbox_name: 'Box A',
        online: true,
        revoked_at: null,
        first_seen_at: t.clock.ms,
      }),
    ]);
    t.clock.advance(60_000);
    await gateway.endAsync();
    await waitFor(async () => (await records())[0]?.online === false);
    expect((await records())[0]).toMatchObject({ last_seen_at: t.clock.ms, computer_name: 'rack-7' });
    // The mine's records answer nobody else.
    const other = await login(t.app, await createMaster(t.app));
    expect((await get(t.app, CLIENTS, { area_id: String(areaId) }, { token: other })).json().code).toBe(
      Code.NOT_FOUND,
    );
  });

  it('admits site agents with the Agent Key only, on their own topics', async () => {
    await expect(connectAgent(agentId('collector-1'), 'wrong')).rejects.toThrow(/Bad username or password/);
    await expect(connectAgent(agentId('bad id!'), await agentKey())).rejects.toThrow();
    // An id without its mine's prefix (it could be another mine's agent or a gateway) is refused.
    await expect(connectAgent('collector-1', await agentKey())).rejects.toThrow(/Identifier rejected/);
    const agent = await connectAgent(agentId('collector-1'), await agentKey());
    clients.push(agent);
    await agent.publishAsync(
      agentTopics.hello(areaId, agentId('collector-1')),
      JSON.stringify({ computer_name: 'pc-1' }),
      {
        qos: 1,
      },
    );
    await waitFor(async () => (await records())[0]?.computer_name === 'pc-1');
    expect(await records()).toEqual([
      expect.objectContaining({
        kind: 'agent',
        client_key: agentUsername(areaId),
        client_id: agentId('collector-1'),
        ip: '127.0.0.1',
        online: true,
      }),
    ]);
    // Another agent's or a gateway's topic drops the connection.
    const gone = closed(agent);
    agent.publish(topics.telemetry(fbox.device_id), '{}', { qos: 0 });
    await gone;
    await waitFor(async () => (await records())[0]?.online === false);
  });

  it('stores the Agent Key encrypted; agents log in with the key the API shows', async () => {
    const created = await storedAgentKey();
    expect(created).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    const fresh = (await post(t.app, '/index/fbox.area/regenerate_key', { id: areaId }, { token })).json()
      .data.agent_key as string;
    expect(fresh).toMatch(/^[0-9a-f]{32}$/);
    const stored = await storedAgentKey();
    expect(stored).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(stored).not.toContain(fresh);
    const agent = await connectAgent(agentId('collector-5'), fresh);
    clients.push(agent);
    expect(agent.connected).toBe(true);
    await expect(connectAgent(agentId('collector-6'), stored)).rejects.toThrow(/Bad username or password/);
  });

  it('revokes an agent: disconnected now, refused from then on, back only with a new Agent Key', async () => {
    const admin = await login(
      t.app,
      await createSubAccount(t.app, await createMaster(t.app), [], { authority: 'administrator' }),
    );
    const key = await agentKey();
    const agent = await connectAgent(agentId('collector-9'), key);
    const other = await connectAgent(agentId('collector-2'), key);
    clients.push(other);
    await waitFor(async () => (await records()).filter((r) => r.online).length === 2);
    const target = (await records()).find((r) => r.client_id === agentId('collector-9'))!;
    // A foreign administrator (another master's) gets "not found".
    expect(
      (await post(t.app, REVOKE, { area_id: areaId, id: target.id }, { token: admin })).json().code,
    ).toBe(Code.NOT_FOUND);
    const gone = closed(agent);
    const res = (await post(t.app, REVOKE, { area_id: areaId, id: target.id }, { token })).json();
    expect(res).toMatchObject({ code: 1, data: { id: target.id, online: false, revoked_at: t.clock.ms } });
    await gone;
    await expect(connectAgent(agentId('collector-9'), key)).rejects.toThrow(/Bad username or password/);
    expect(other.connected).toBe(true);
    expect((await records()).find((r) => r.id === target.id)).toMatchObject({
      online: false,
      revoked_at: t.clock.ms,
    });

    // A new key cuts every agent off; with it the revoked id may return.
    const otherGone = closed(other);
    const fresh = (await post(t.app, '/index/fbox.area/regenerate_key', { id: areaId }, { token })).json()
      .data.agent_key;
    await otherGone;
    await expect(connectAgent(agentId('collector-2'), key)).rejects.toThrow(/Bad username or password/);
    const back = await connectAgent(agentId('collector-9'), fresh);
    clients.push(back);
    await waitFor(async () => (await records()).find((r) => r.id === target.id)?.online === true);
    expect((await records()).find((r) => r.id === target.id)?.revoked_at).toBeNull();
  });

  it('revokes a gateway key: disconnected, refused with its credentials until new ones are issued', async () => {
    const gateway = await connectGateway(t.app, fbox, { clientId: fbox.device_id });
    await waitFor(async () => (await records())[0]?.online === true);
    const [record] = await records();
    const gone = closed(gateway);
    const res = (await post(t.app, REVOKE, { area_id: areaId, id: record!.id }, { token })).json();
    expect(res).toMatchObject({
      code: 1,
      msg: 'Client revoked and disconnected',
      data: { revoked_at: t.clock.ms },
    });
    await gone;
    await expect(connectGateway(t.app, fbox, { clientId: fbox.device_id })).rejects.toThrow(
      /Bad username or password/,
    );
    // Nobody learns the replacement password from the revoke.
    expect(JSON.stringify(res)).not.toContain('mqtt_password');
    const { mqtt_password } = await t.app.devices.regenerateMqttPassword(fbox.id);
    const back = await connectGateway(t.app, { ...fbox, mqtt_password }, { clientId: fbox.device_id });
    clients.push(back);
    await waitFor(async () => (await records())[0]?.online === true);
    expect((await records())[0]?.revoked_at).toBeNull();
  });

  it('lets administrators of the mine revoke, not operators; unknown records are not found', async () => {
    const operator = await login(t.app, await createSubAccount(t.app, master, [areaId]));
    const admin = await login(
      t.app,
      await createSubAccount(t.app, master, [areaId], { authority: 'administrator' }),
    );
    const gateway = await connectGateway(t.app, fbox, { clientId: fbox.device_id });
    clients.push(gateway);
    await waitFor(async () => (await records())[0]?.online === true);
    const [record] = await records(admin);
    expect((await get(t.app, CLIENTS, { area_id: String(areaId) }, { token: operator })).json().code).toBe(
      Code.FORBIDDEN,
    );
    expect(
      (await post(t.app, REVOKE, { area_id: areaId, id: record!.id }, { token: operator })).json().code,
    ).toBe(Code.FORBIDDEN);
    expect((await post(t.app, REVOKE, { area_id: areaId, id: 999_999 }, { token: admin })).json().code).toBe(
      Code.NOT_FOUND,
    );
    expect(gateway.connected).toBe(true);
    const gone = closed(gateway);
    expect(
      (await post(t.app, REVOKE, { area_id: areaId, id: record!.id }, { token: admin })).json().code,
    ).toBe(1);
    await gone;
  });

  it('moves a gateway with its FBOX to another mine: the old mine lists it no more', async () => {
    const gateway = await connectGateway(t.app, fbox, { clientId: fbox.device_id });
    await gateway.publishAsync(topics.hello(fbox.device_id), JSON.stringify({ computer_name: 'rack-7' }), {
      qos: 1,
    });
    await waitFor(async () => (await records())[0]?.computer_name === 'rack-7');
    const north = (await createArea(t.app, master.id, 'North')).id;
    const recordsOfNorth = async (): Promise<Record[]> => {
      await t.app.mqttClients!.drain();
      return (await get(t.app, CLIENTS, { area_id: String(north) }, { token })).json().data.items;
    };
    // Its session was opened as the old mine's: it is closed, and the gateway comes back as the new one's.
    const gone = closed(gateway);
    const moved = await post(
      t.app,
      '/index/fbox.boxlist/transfer',
      { area_id: areaId, id: fbox.id, to_area_id: north },
      { token },
    );
    expect(moved.json().code).toBe(1);
    await gone;
    expect(await records()).toEqual([]);
    expect(await recordsOfNorth()).toEqual([
      expect.objectContaining({ client_id: fbox.device_id, computer_name: 'rack-7', online: false }),
    ]);
    clients.push(await connectGateway(t.app, fbox, { clientId: fbox.device_id }));
    await waitFor(async () => (await recordsOfNorth())[0]?.online === true);
    expect(await recordsOfNorth()).toHaveLength(1);
    expect(await records()).toEqual([]);
  });

  it('cuts off the gateways and agents of a deleted mine', async () => {
    const gateway = await connectGateway(t.app, fbox, { clientId: fbox.device_id });
    const agent = await connectAgent(agentId('collector-1'), await agentKey());
    const both = Promise.all([closed(gateway), closed(agent)]);
    expect((await post(t.app, '/index/fbox.area/deleted', { id: areaId }, { token })).json().code).toBe(1);
    await both;
  });
});

describeDb('client key records without the embedded broker', () => {
  it('lists records and refuses to revoke when the server has no broker of its own', async () => {
    const t = await buildTestApp();
    try {
      const master = await createMaster(t.app);
      const token = await login(t.app, master);
      const areaId = (await createArea(t.app, master.id)).id;
      const now = t.clock.ms;
      await t.app.db
        .insertInto('mqtt_clients')
        .values({
          area_id: areaId,
          kind: 'agent',
          client_key: agentUsername(areaId),
          client_id: 'c1',
          first_seen_at: now,
          last_seen_at: now,
        })
        .execute();
      const list = (await get(t.app, CLIENTS, { area_id: String(areaId) }, { token })).json().data;
      expect(list).toMatchObject({ broker: 'off', items: [{ client_id: 'c1', online: false }] });
      const res = (await post(t.app, REVOKE, { area_id: areaId, id: list.items[0].id }, { token })).json();
      expect(res).toMatchObject({ code: Code.CONFLICT, data: null });
      expect(res.msg).toMatch(/built-in MQTT broker/);
      const after = (await get(t.app, CLIENTS, { area_id: String(areaId) }, { token })).json().data;
      expect(after.items[0].revoked_at).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describeDb('client key records (external broker)', () => {
  const run = testBrokers.includes('external') ? it : it.skip;
  run('records what gateways publish, without IP or client id, and refuses to revoke', async () => {
    const t = await buildTestApp({ mqtt: 'external' });
    const master = await createMaster(t.app);
    const token = await login(t.app, master);
    const areaId = (await createArea(t.app, master.id)).id;
    const fbox = await createFbox(t.app, areaId, { name: 'Ext box' });
    const gateway = await connectGateway(t.app, fbox);
    const list = async () => {
      await t.app.mqttClients!.drain();
      return (await get(t.app, CLIENTS, { area_id: String(areaId) }, { token })).json().data;
    };
    try {
      await gateway.publishAsync(topics.status(fbox.device_id), 'online', { qos: 1, retain: true });
      await gateway.publishAsync(topics.hello(fbox.device_id), JSON.stringify({ computer_name: 'ext-pc' }), {
        qos: 1,
        retain: true,
      });
      await waitFor(async () => (await list()).items[0]?.computer_name === 'ext-pc');
      const data = await list();
      expect(data).toMatchObject({
        broker: 'external',
        items: [{ kind: 'gateway', client_key: fbox.mqtt_username, client_id: '', ip: '', online: true }],
      });
      const res = (await post(t.app, REVOKE, { area_id: areaId, id: data.items[0].id }, { token })).json();
      expect(res.code).toBe(Code.CONFLICT);
      await gateway.publishAsync(topics.status(fbox.device_id), 'offline', { qos: 1, retain: true });
      await waitFor(async () => (await list()).items[0]?.online === false);
    } finally {
      // Retained messages outlive the test on a shared broker.
      for (const topic of [topics.status(fbox.device_id), topics.hello(fbox.device_id)]) {
        await gateway.publishAsync(topic, '', { qos: 1, retain: true });
      }
      await gateway.endAsync();
      await t.close();
    }
  });
});
