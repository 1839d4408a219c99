import { hostname } from 'node:os';
import {
  type CommandAck,
  CommandAckSchema,
  type CommandMessage,
  commandKinds,
  HelloMessageSchema,
  type LogPart,
  type TelemetryMessage,
  TelemetryMessageSchema,
  topics,
} from '@fbox/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Gateway, SIMULATOR_VERSION } from './gateway.js';
import { startSimulator } from './simulator.js';
import { CLOUD, type Recorder, startRecorder, startTestBroker, type TestBroker } from './test-broker.js';

let counter = 0;
const uniqueId = (tag: string) => `sim${tag}${process.pid}${Date.now().toString(36)}${++counter}`;

interface Target {
  name: string;
  /** Set up a broker; returns its URL, how to register an account, and the observer's credentials. */
  setup(): Promise<{
    url: string;
    addDevice(id: string, u: string, p: string): void;
    observer?: { username: string; password: string };
    close(): Promise<void>;
    broker?: TestBroker;
  }>;
}

const targets: Target[] = [
  {
    name: 'embedded aedes (authenticated, topic ACL)',
    setup: async () => {
      const broker = await startTestBroker();
      return { url: broker.url, addDevice: broker.addDevice, observer: CLOUD, close: broker.close, broker };
    },
  },
];
if (process.env.TEST_MQTT_URL) {
  const url = process.env.TEST_MQTT_URL;
  targets.push({
    name: `external broker ${url}`,
    setup: async () => ({ url, addDevice: () => {}, close: async () => {} }),
  });
}

const telemetryOf = (r: { payload: string }) => JSON.parse(r.payload) as TelemetryMessage;
const ackOf = (r: { payload: string }) => CommandAckSchema.parse(JSON.parse(r.payload)) as CommandAck;

describe.each(targets)('gateway protocol on $name', (target) => {
  let env: Awaited<ReturnType<Target['setup']>>;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    env = await target.setup();
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await env.close();
  });

  /** A gateway with its own account and a recorder on its topics. */
  const setupGateway = async (options: { ignoreCommands?: boolean; intervalMs?: number } = {}) => {
    const deviceId = uniqueId('g');
    const username = `mqtt_${deviceId}`;
    const password = `pw-${deviceId}`;
    env.addDevice(deviceId, username, password);
    const recorder = await startRecorder(env.url, `fbox/${deviceId}/#`, env.observer);
    const gateway = new Gateway({
      brokerUrl: env.url,
      spec: { deviceId, kind: 'immersion', tanks: 2, minersPerTank: 3 },
      username,
      password,
      intervalMs: options.intervalMs ?? 100,
      reportAfterCommandMs: 0,
      model: { seed: 3, restartMs: 200 },
      ignoreCommands: options.ignoreCommands ?? false,
    });
    cleanups.push(async () => {
      await gateway.stop();
      // Leave no retained status behind on a shared broker.
      for (const topic of [topics.status(deviceId), topics.hello(deviceId)]) {
        await recorder.client.publishAsync(topic, '', { qos: 1, retain: true }).catch(() => {});
      }
      await recorder.close();
    });
    await gateway.start();
    return { deviceId, gateway, recorder };
  };

  it('publishes retained online, telemetry with increasing seq, and the last will on an unclean end', async () => {
    const { deviceId, gateway, recorder } = await setupGateway();
    await recorder.waitFor((m) => m.topic === topics.status(deviceId) && m.payload === 'online');
    await recorder.waitFor(
      () => recorder.messages.filter((m) => m.topic === topics.telemetry(deviceId)).length >= 3,
    );
    const reports = recorder.messages.filter((m) => m.topic === topics.telemetry(deviceId)).map(telemetryOf);
    for (const r of reports) expect(TelemetryMessageSchema.safeParse(r).success).toBe(true);
    const seqs = reports.map((r) => r.seq);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
    expect(seqs[0]).toBeGreaterThan(1_600_000_000_000); // time-based start: restarts never reuse a seq
    expect(reports[0]!.miners).toHaveLength(6);
    // It announces itself (client key records) with this machine's name, retained for late subscribers.
    const hello = await startRecorder(env.url, topics.hello(deviceId), env.observer);
    const announced = await hello.waitFor(() => true);
    expect(announced.retain).toBe(true);
    expect(HelloMessageSchema.parse(JSON.parse(announced.payload))).toEqual({
      computer_name: hostname(),
      version: SIMULATOR_VERSION,
    });
    await hello.close();

    // A late subscriber gets the retained status.
    const late = await startRecorder(env.url, topics.status(deviceId), env.observer);
    expect((await late.waitFor(() => true)).payload).toBe('online');
    await late.close();

    // Unclean end: the broker publishes the last will.
    const from = recorder.messages.length;
    await gateway.silence({ mode: 'disconnect' });
    await recorder.waitFor((m) => m.topic === topics.status(deviceId) && m.payload === 'offline', 5000, from);
    expect(gateway.connected).toBe(false);

    // …and it comes back, with a higher seq.
    const back = recorder.messages.length;
    await gateway.resume();
    await recorder.waitFor((m) => m.topic === topics.status(deviceId) && m.payload === 'online', 5000, back);
    const next = telemetryOf(
      await recorder.waitFor((m) => m.topic === topics.telemetry(deviceId), 5000, back),
    );
    expect(next.seq).toBeGreaterThan(seqs[seqs.length - 1]!);
  });

  it('goes quiet without disconnecting, then returns', async () => {
    const { deviceId, gateway, recorder } = await setupGateway();
    await recorder.waitFor((m) => m.topic === topics.telemetry(deviceId));
    await gateway.silence({ mode: 'quiet', durationMs: 400 });
    const from = recorder.messages.length;
    await new Promise((r) => setTimeout(r, 250));
    const during = recorder.messages.slice(from + 1).filter((m) => m.topic === topics.telemetry(deviceId));
    expect(during).toHaveLength(0); // at most one in flight when silence began
    expect(recorder.messages.slice(from).some((m) => m.payload === 'offline')).toBe(false);
    await recorder.waitFor((m) => m.topic === topics.telemetry(deviceId), 3000, recorder.messages.length);
    expect(gateway.silent).toBeNull();
  });

  it('executes every command kind and acknowledges it; refuses unknown targets; acts once per id', async () => {
    const { deviceId, gateway, recorder } = await setupGateway();
    const first = telemetryOf(await recorder.waitFor((m) => m.topic === topics.telemetry(deviceId)));
    const sn = first.miners[0]!.sn;
    const outlet = first.miners[1]!.outlet!;
    const logSn = first.miners[2]!.sn;
    const params: Record<(typeof commandKinds)[number], [CommandMessage['target'], Record<string, unknown>]> =
      {
        'miner.restart': [{ sn }, {}],
        'miner.mode': [{ sn }, { mode: 'low' }],
        'miner.pool': [{ sn }, { pool_address: 'stratum+tcp://btc.f2pool.com:1314', worker: 'acme.1x1' }],
        'miner.resave_account': [{ sn }, { worker: 'acme.1x01' }],
        'miner.overclock': [{ sn }, { enabled: true, min: 95, max: 110 }],
        'tank.controller_switch': [{ tank_no: 1 }, { device: 'fan', no: 2, status: 'off' }],
        'tank.oil_setting': [{ tank_no: 2 }, { energy_saving: true }],
        'pdu.outlet': [{ outlet }, { status: 'off' }],
        'meter.reset': [{ meter_no: 1 }, {}],
        'fbox.config': [{}, { interval_s: 1 }],
        'miner.logs': [{ sn: logSn }, { from: Date.now() - 3_600_000, to: Date.now() }],
      };
    const cmdTopic = topics.command(deviceId);
    for (const kind of commandKinds) {
      const [t, p] = params[kind];
      const id = `${kind}-${counter}`;
      const from = recorder.messages.length;
      await recorder.publish(cmdTopic, { id, kind, target: t, params: p } satisfies CommandMessage);
      const ack = ackOf(
        await recorder.waitFor((m) => m.topic === topics.ack(deviceId) && m.payload.includes(id), 5000, from),
      );
      expect(ack, kind).toEqual({ id, ok: true });
    }
    expect(gateway.intervalMs).toBe(1000);
    // The log came in parts before its ack: numbered from 0, the final one marked, the miner's lines.
    const logParts = recorder.messages
      .filter((m) => m.topic === topics.logs(deviceId) && m.payload.includes(`"miner.logs-${counter}"`))
      .map((m) => JSON.parse(m.payload) as LogPart);
    expect(logParts.length).toBeGreaterThan(0);
    expect(logParts.map((p) => p.part)).toEqual(logParts.map((_, i) => i));
    expect(logParts.at(-1)!.last).toBe(true);
    expect(logParts.map((p) => p.data).join('')).toMatch(/cgminer: GHS 5s=/);

    const state = gateway.model.report(0, Date.now());
    expect(state.miners[0]).toMatchObject({ mode: 'low', worker: 'acme.1x01', pool: 'F2Pool' });
    expect(state.miners[1]).toMatchObject({ online: false, power_w: 0 });
    expect(state.tanks[0]!.control_mode).toBe('manual');
    expect(state.tanks[1]!.energy_saving).toBe(true);
    expect(state.box.meters[0]!.energy_kwh).toBeLessThan(1);

    // Unknown SN and invalid params: ok false with a reason.
    let from = recorder.messages.length;
    await recorder.publish(cmdTopic, {
      id: 'bad-sn',
      kind: 'miner.restart',
      target: { sn: 'NOPE' },
      params: {},
    });
    let ack = ackOf(
      await recorder.waitFor(
        (m) => m.topic === topics.ack(deviceId) && m.payload.includes('bad-sn'),
        5000,
        from,
      ),
    );
    expect(ack).toEqual({ id: 'bad-sn', ok: false, error: expect.stringContaining('unknown miner sn NOPE') });
    from = recorder.messages.length;
    await recorder.publish(cmdTopic, { id: 'bad-kind', kind: 'miner.explode', target: {}, params: {} });
    ack = ackOf(
      await recorder.waitFor(
        (m) => m.topic === topics.ack(deviceId) && m.payload.includes('bad-kind'),
        5000,
        from,
      ),
    );
    expect(ack.ok).toBe(false);
    expect(ack.error).toMatch(/invalid command/);

    // Redelivery of the same id: acknowledged twice, executed once.
    const execute = vi.spyOn(gateway.model, 'execute');
    from = recorder.messages.length;
    const again = { id: 'dup-1', kind: 'miner.restart', target: { sn }, params: {} };
    await recorder.publish(cmdTopic, again);
    await recorder.waitFor(
      (m) => m.topic === topics.ack(deviceId) && m.payload.includes('dup-1'),
      5000,
      from,
    );
    await recorder.publish(cmdTopic, again);
    await recorder.waitFor(
      () => recorder.messages.slice(from).filter((m) => m.topic === topics.ack(deviceId)).length >= 2,
      5000,
    );
    const acks = recorder.messages
      .slice(from)
      .filter((m) => m.topic === topics.ack(deviceId))
      .map(ackOf);
    expect(acks).toEqual([
      { id: 'dup-1', ok: true },
      { id: 'dup-1', ok: true },
    ]);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(gateway.stats().commandsDuplicate).toBe(1);
  });

  it('can ignore commands (server time-out tests)', async () => {
    const { deviceId, gateway, recorder } = await setupGateway({ ignoreCommands: true });
    await recorder.publish(topics.command(deviceId), {
      id: 'ign',
      kind: 'meter.reset',
      target: { meter_no: 1 },
      params: {},
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(recorder.messages.some((m) => m.topic === topics.ack(deviceId))).toBe(false);
    expect(gateway.stats().commandsIgnored).toBe(1);
  });

  it('stop publishes offline and ends cleanly', async () => {
    const { deviceId, gateway, recorder } = await setupGateway();
    await recorder.waitFor((m) => m.topic === topics.telemetry(deviceId));
    await gateway.stop();
    await recorder.waitFor((m) => m.topic === topics.status(deviceId) && m.payload === 'offline');
    expect(gateway.connected).toBe(false);
  });
});

describe('broker security (embedded aedes)', () => {
  let broker: TestBroker;
  beforeAll(async () => {
    broker = await startTestBroker();
  });
  afterAll(async () => {
    await broker.close();
  });

  it('a wrong password is refused', async () => {
    const deviceId = uniqueId('a');
    broker.addDevice(deviceId, 'u', 'right');
    const gateway = new Gateway({
      brokerUrl: broker.url,
      spec: { deviceId },
      username: 'u',
      password: 'wrong',
    });
    await expect(gateway.start()).rejects.toThrow(/refused/);
  });

  it('startSimulator runs several boxes, each confined to its own topics', async () => {
    const ids = [uniqueId('s'), uniqueId('s')];
    for (const id of ids) broker.addDevice(id, `u-${id}`, `p-${id}`);
    const recorder = await startRecorder(broker.url, 'fbox/#', CLOUD);
    const sim = await startSimulator({
      brokerUrl: broker.url,
      gateways: [
        { deviceId: ids[0]!, username: `u-${ids[0]}`, password: `p-${ids[0]}`, kind: 'air', miners: 4 },
        {
          deviceId: ids[1]!,
          username: `u-${ids[1]}`,
          password: `p-${ids[1]}`,
          kind: 'hydro',
          tanks: 1,
          minersPerTank: 2,
        },
      ],
      intervalMs: 100,
      seed: 5,
      faults: { rate: 0.01 },
    });
    try {
      for (const id of ids) await recorder.waitFor((m) => m.topic === topics.telemetry(id));
      const stats = sim.stats();
      expect(stats).toMatchObject({ gateways: 2, connected: 2, miners: 6 });
      expect(sim.gateway(ids[1]!)?.model.kind).toBe('hydro');
      const workers = telemetryOfFirst(recorder, ids[1]!).miners.map((m) => m.worker);
      expect(workers).toEqual(['fboxdemo.2x1', 'fboxdemo.2x2']);
      expect(broker.refused).toEqual([]);
    } finally {
      await sim.stop();
    }
    for (const id of ids)
      await recorder.waitFor((m) => m.topic === topics.status(id) && m.payload === 'offline');
    await recorder.close();
    await expect(
      startSimulator({
        brokerUrl: broker.url,
        gateways: [{ deviceId: uniqueId('x'), username: 'nobody', password: 'x' }],
      }),
    ).rejects.toThrow(/failed to start/);
  });
});

const telemetryOfFirst = (recorder: Recorder, deviceId: string): TelemetryMessage =>
  telemetryOf(recorder.messages.find((m) => m.topic === topics.telemetry(deviceId))!);
