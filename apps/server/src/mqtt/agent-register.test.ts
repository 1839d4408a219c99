import {
  type AgentRegistered,
  AgentRegisteredSchema,
  agentClientIdPrefix,
  agentRegisterLimits,
  agentRegisterTopics,
  agentUsername,
  topics,
} from '@fbox/contracts';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp, testBrokers } from '../test/build-test-app.js';
import { createArea, createMaster, get, login, post, type TestUser } from '../test/factories.js';
import { brokerUrl, connectGateway, spreadAreaIds, waitFor } from '../test/mqtt-client.js';

/**
 * Site agents registering as FBOX gateways with their mine's Agent Key (docs/mqtt.md, "Registering
 * with the Agent Key"): over a real MQTT connection to the broker, into the real FBOX service.
 */
describeDb('agent registration with the Agent Key', () => {
  for (const broker of testBrokers) describe(`${broker} broker`, () => suite(broker));
});

const closed = (client: MqttClient) => new Promise<void>((resolve) => client.once('close', () => resolve()));

const suite = (broker: (typeof testBrokers)[number]) => {
  let t: TestApp;
  let master: TestUser;
  let areaId: number;
  const clients: MqttClient[] = [];
  /** Everything the server logged, at every level. */
  const logLines: string[] = [];

  beforeEach(async () => {
    logLines.length = 0;
    t = await buildTestApp({
      mqtt: broker,
      logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } },
    });
    if (broker === 'external') await spreadAreaIds(t.app);
    master = await createMaster(t.app);
    areaId = (await createArea(t.app, master.id, 'Site')).id;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.endAsync(true);
    await t.close();
  });

  const agentKey = async (area = areaId) =>
    t.app.secrets.open(
      (
        await t.app.db
          .selectFrom('areas')
          .select('agent_key')
          .where('id', '=', area)
          .executeTakeFirstOrThrow()
      ).agent_key,
    );
  const agentId = (name: string, area = areaId) => `${agentClientIdPrefix(area)}${name}`;
  const connectAgent = async (clientId: string, options: IClientOptions = {}, area = areaId) => {
    const client = await connectAsync(brokerUrl(t.app), {
      clientId,
      username: agentUsername(area),
      password: await agentKey(area),
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...options,
    });
    clients.push(client);
    return client;
  };
  /** Subscribes to the agent's answers, sends `body`, resolves with the answer. */
  const register = async (clientId: string, body: unknown, area = areaId): Promise<AgentRegistered> => {
    const agent = await connectAgent(clientId, {}, area);
    const answered = new Promise<AgentRegistered>((resolve) =>
      agent.on('message', (_topic, payload) =>
        resolve(AgentRegisteredSchema.parse(JSON.parse(payload.toString()))),
      ),
    );
    const granted = await agent.subscribeAsync(agentRegisterTopics.registered(area, clientId), { qos: 1 });
    expect(granted[0]!.qos).toBe(1);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    await agent.publishAsync(agentRegisterTopics.register(area, clientId), text, { qos: 1 });
    const answer = await answered;
    await agent.endAsync();
    return answer;
  };
  const fboxes = (area = areaId) =>
    t.app.db
      .selectFrom('fboxes')
      .select(['id', 'name', 'kind', 'device_id'])
      .where('area_id', '=', area)
      .execute();
  const created = (answer: AgentRegistered) => {
    if (!answer.ok) throw new Error(`registration refused: ${answer.error}`);
    return answer;
  };

  it('creates an FBOX in the mine whose gateway account works, and logs the creation without its password', async () => {
    const answer = created(await register(agentId('rack-7'), { name: 'Rack 7 collector', kind: 'air' }));
    expect(answer.username).toBe(`gw-${answer.device_id}`);
    expect(await fboxes()).toEqual([
      expect.objectContaining({ name: 'Rack 7 collector', kind: 'air', device_id: answer.device_id }),
    ]);
    // The credentials are a gateway's: it may subscribe to its commands and report.
    const gateway = await connectGateway(t.app, {
      device_id: answer.device_id,
      mqtt_username: answer.username,
      mqtt_password: answer.password,
    });
    clients.push(gateway);
    const granted = await gateway.subscribeAsync(topics.command(answer.device_id), { qos: 1 });
    expect(granted[0]!.qos).toBe(1);
    if (broker === 'embedded') {
      await expect(
        connectGateway(t.app, {
          device_id: answer.device_id,
          mqtt_username: answer.username,
          mqtt_password: 'wrong',
        }),
      ).rejects.toThrow(/Bad username or password/);
    }
    const log = await t.app.db.selectFrom('operation_log').selectAll().execute();
    expect(log).toEqual([
      expect.objectContaining({
        action: 'fboxCreate',
        user_id: null,
        username: agentUsername(areaId),
        master_id: master.id,
        area_id: areaId,
        area_name: 'Site',
        path: agentRegisterTopics.register(areaId, agentId('rack-7')),
        code: 1,
      }),
    ]);
    expect(log[0]!.target).toContain('Rack 7 collector');
    expect(JSON.parse(log[0]!.params)).toEqual({
      name: 'Rack 7 collector',
      kind: 'air',
      client_id: agentId('rack-7'),
    });
    expect(JSON.stringify(log)).not.toContain(answer.password);
    // The server's log names the agent and the box, never the password.
    expect(logLines.join('')).toContain(answer.device_id);
    expect(logLines.join('')).not.toContain(answer.password);
    // The master sees it in the Operation Log.
    const token = await login(t.app, master);
    const listed = (
      await get(t.app, '/index/fbox.oplog/index', { page: '1', limit: '10', action: 'fboxCreate' }, { token })
    ).json();
    expect(listed.data.items).toEqual([
      expect.objectContaining({ action: 'fboxCreate', username: agentUsername(areaId), area_id: areaId }),
    ]);
  });

  it('gives the same agent the same FBOX with its current account; a deleted one is replaced', async () => {
    const first = created(await register(agentId('rack-7'), { name: 'Rack 7', kind: 'air' }));
    const again = created(await register(agentId('rack-7'), { name: 'Renamed', kind: 'hydro' }));
    expect(again).toEqual(first);
    expect(await fboxes()).toHaveLength(1);
    // Another agent of the mine gets a box of its own.
    const other = created(await register(agentId('rack-8'), { name: 'Rack 8', kind: 'air' }));
    expect(other.device_id).not.toBe(first.device_id);

    const [box] = (await fboxes()).filter((b) => b.device_id === first.device_id);
    const token = await login(t.app, master);
    const fresh = (
      await post(t.app, '/index/fbox.boxlist/regenerate_mqtt', { area_id: areaId, id: box!.id }, { token })
    ).json().data;
    expect(created(await register(agentId('rack-7'), { name: 'Rack 7', kind: 'air' }))).toEqual({
      ...first,
      password: fresh.mqtt_password,
    });

    expect(
      (await post(t.app, '/index/fbox.boxlist/deleted', { area_id: areaId, id: box!.id }, { token })).json()
        .code,
    ).toBe(1);
    const replaced = created(await register(agentId('rack-7'), { name: 'Rack 7 again', kind: 'air' }));
    expect(replaced.device_id).not.toBe(first.device_id);
    expect((await fboxes()).map((b) => b.name).sort()).toEqual(['Rack 7 again', 'Rack 8']);
  });

  it('answers a bad request with ok:false naming the field, and creates nothing', async () => {
    const id = agentId('rack-7');
    expect(await register(id, { name: 'x'.repeat(51), kind: 'air' })).toEqual({
      ok: false,
      field: 'name',
      error: expect.stringMatching(/^name: .*50/),
    });
    expect(await register(id, { name: 'Rack', kind: 'steam' })).toMatchObject({ ok: false, field: 'kind' });
    expect(await register(id, { name: '   ', kind: 'air' })).toMatchObject({ ok: false, field: 'name' });
    expect(await register(id, 'not json')).toMatchObject({ ok: false, error: expect.stringMatching(/JSON/) });
    expect(await fboxes()).toEqual([]);
  });

  it(`takes at most ${agentRegisterLimits.perMinute} requests per mine and minute`, async () => {
    const body = { name: 'Rack', kind: 'air' };
    for (let i = 0; i < agentRegisterLimits.perMinute; i++)
      expect((await register(agentId(`r${i}`), body)).ok).toBe(true);
    expect(await register(agentId('one-more'), body)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/too many/),
    });
    // Another mine has its own allowance.
    const otherArea = (await createArea(t.app, master.id, 'Other')).id;
    expect((await register(agentId('rack', otherArea), body, otherArea)).ok).toBe(true);
    t.clock.advance(60_000);
    expect((await register(agentId('one-more'), body)).ok).toBe(true);
    expect(await fboxes()).toHaveLength(agentRegisterLimits.perMinute + 1);
  });

  if (broker === 'external') {
    it('leaves a registration for a mine it does not have unanswered', async () => {
      // Another deployment's mine on a shared broker, or one deleted since: not this server's to answer.
      const unknown = areaId + 1000;
      const clientId = agentId('rack-7', unknown);
      const agent = await connectAsync(brokerUrl(t.app), { clientId, reconnectPeriod: 0 });
      clients.push(agent);
      const heard: string[] = [];
      agent.on('message', (_topic, payload) => heard.push(payload.toString()));
      await agent.subscribeAsync(agentRegisterTopics.registered(unknown, clientId), { qos: 1 });
      await agent.publishAsync(agentRegisterTopics.register(unknown, clientId), '{"name":"x","kind":"air"}', {
        qos: 1,
      });
      // Its own mine's registration, sent after it, is answered: the unknown one had its turn.
      expect((await register(agentId('rack-7'), { name: 'Rack 7', kind: 'air' })).ok).toBe(true);
      expect(heard).toEqual([]);
      expect(await t.app.db.selectFrom('fboxes').select('id').execute()).toHaveLength(1);
    });
    return;
  }

  it('refuses a wrong Agent Key and another mine’s topics', async () => {
    await expect(connectAgent(agentId('rack-7'), { password: 'f'.repeat(32) })).rejects.toThrow(
      /Bad username or password/,
    );
    // An agent of another mine cannot register into this one: the topic is not its own.
    const otherArea = (await createArea(t.app, (await createMaster(t.app)).id)).id;
    const intruder = await connectAgent(agentId('x', otherArea), {}, otherArea);
    const gone = closed(intruder);
    intruder.publish(
      agentRegisterTopics.register(areaId, agentId('x', otherArea)),
      '{"name":"x","kind":"air"}',
      { qos: 1 },
    );
    await gone;
    // Nor under another agent's id of its own mine.
    const agent = await connectAgent(agentId('rack-7'));
    const dropped = closed(agent);
    agent.publish(agentRegisterTopics.register(areaId, agentId('rack-8')), '{"name":"x","kind":"air"}', {
      qos: 1,
    });
    await dropped;
    expect(await fboxes()).toEqual([]);
    expect(await fboxes(otherArea)).toEqual([]);
  });

  it('lets only the agent itself hear its answer', async () => {
    /** mqtt.js rejects a subscription the broker answered with failure (0x80). */
    const refused = (client: MqttClient, topic: string) =>
      expect(client.subscribeAsync(topic, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    const eavesdropper = await connectAgent(agentId('rack-8'));
    const heard: string[] = [];
    eavesdropper.on('message', (topic) => heard.push(topic));
    for (const topic of [
      agentRegisterTopics.registered(areaId, agentId('rack-7')),
      `agent/${areaId}/+/registered`,
      'agent/#',
      '#',
      // Nor may it read registration requests.
      agentRegisterTopics.register(areaId, agentId('rack-7')),
    ])
      await refused(eavesdropper, topic);
    const answer = created(await register(agentId('rack-7'), { name: 'Rack 7', kind: 'air' }));
    // A gateway cannot either.
    const gateway = await connectGateway(t.app, {
      device_id: answer.device_id,
      mqtt_username: answer.username,
      mqtt_password: answer.password,
    });
    clients.push(gateway);
    await refused(gateway, agentRegisterTopics.registered(areaId, agentId('rack-7')));
    // The eavesdropper is still connected, and heard nothing.
    expect(eavesdropper.connected).toBe(true);
    expect(heard).toEqual([]);
  });

  it('refuses to hand out the account of a revoked gateway key, and a box moved to another mine', async () => {
    const first = created(await register(agentId('rack-7'), { name: 'Rack 7', kind: 'air' }));
    const gateway = await connectGateway(t.app, {
      device_id: first.device_id,
      mqtt_username: first.username,
      mqtt_password: first.password,
    });
    const token = await login(t.app, master);
    const records = async () =>
      (await get(t.app, '/index/fbox.area/clients', { area_id: String(areaId) }, { token })).json().data
        .items as { id: number; client_key: string }[];
    await waitFor(async () => {
      await t.app.mqttClients!.drain();
      return (await records()).some((r) => r.client_key === first.username);
    });
    const record = (await records()).find((r) => r.client_key === first.username)!;
    const gone = closed(gateway);
    expect(
      (
        await post(t.app, '/index/fbox.area/revoke_client', { area_id: areaId, id: record.id }, { token })
      ).json().code,
    ).toBe(1);
    await gone;
    expect(await register(agentId('rack-7'), { name: 'Rack 7', kind: 'air' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/revoked/),
    });

    // Moved to another mine of the master: the agent of this mine gets a new box, not that one's key.
    const second = created(await register(agentId('rack-9'), { name: 'Rack 9', kind: 'air' }));
    const otherArea = (await createArea(t.app, master.id, 'Elsewhere')).id;
    const moved = (await fboxes()).find((b) => b.device_id === second.device_id)!;
    expect(
      (
        await post(
          t.app,
          '/index/fbox.boxlist/transfer',
          { area_id: areaId, id: moved.id, to_area_id: otherArea },
          { token },
        )
      ).json().code,
    ).toBe(1);
    const fresh = created(await register(agentId('rack-9'), { name: 'Rack 9', kind: 'air' }));
    expect(fresh.device_id).not.toBe(second.device_id);
    expect((await fboxes()).map((b) => b.device_id)).toContain(fresh.device_id);
  });

  it(`creates at most ${agentRegisterLimits.fboxesPerMine} FBOXes per mine for agents`, async () => {
    for (let i = 0; i < agentRegisterLimits.fboxesPerMine; i++)
      created(
        await t.app.fboxAgents.register(areaId, agentId(`a${i}`), { name: `A ${i}`, kind: 'air' }, null),
      );
    expect(
      await t.app.fboxAgents.register(areaId, agentId('one-more'), { name: 'More', kind: 'air' }, null),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/already/) });
    // An agent that has its box still gets it.
    expect(
      (await t.app.fboxAgents.register(areaId, agentId('a0'), { name: 'A 0', kind: 'air' }, null)).ok,
    ).toBe(true);
    expect(await fboxes()).toHaveLength(agentRegisterLimits.fboxesPerMine);
  }, 60_000);
};
