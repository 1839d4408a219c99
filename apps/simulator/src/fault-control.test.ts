import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TelemetryMessage, TelemetryMessageSchema } from '@fbox/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runFaultCommand } from './fault-cli.js';
import { HIJACK_POOL_ADDRESS } from './model/faults.js';
import { type Simulator, startSimulator } from './simulator.js';
import { CLOUD, type Recorder, startRecorder, startTestBroker, type TestBroker } from './test-broker.js';

const deviceId = `simfault${process.pid}${Date.now().toString(36)}`;
const telemetryOf = (payload: string) =>
  TelemetryMessageSchema.parse(JSON.parse(payload)) as TelemetryMessage;

/**
 * Faults injected into a running simulator, through its API and through the CLI's control socket,
 * show in the telemetry it publishes on the broker, and clear.
 */
describe('injected faults on the wire', () => {
  let broker: TestBroker;
  let recorder: Recorder;
  let simulator: Simulator;
  const control = join(tmpdir(), `${deviceId}.sock`);

  beforeAll(async () => {
    broker = await startTestBroker();
    broker.addDevice(deviceId, `mqtt_${deviceId}`, 'pw');
    recorder = await startRecorder(broker.url, `fbox/${deviceId}/telemetry`, CLOUD);
    simulator = await startSimulator({
      brokerUrl: broker.url,
      gateways: [
        {
          deviceId,
          username: `mqtt_${deviceId}`,
          password: 'pw',
          kind: 'immersion',
          tanks: 2,
          minersPerTank: 3,
        },
      ],
      intervalMs: 50,
      seed: 4,
      control,
    });
  });
  afterAll(async () => {
    await simulator?.stop();
    await recorder?.close();
    await broker?.close();
  });

  /** The next report (published after now) that satisfies `check`. */
  const nextReport = async (check: (m: TelemetryMessage) => boolean) => {
    const from = recorder.messages.length;
    return telemetryOf((await recorder.waitFor((r) => check(telemetryOf(r.payload)), 5000, from)).payload);
  };

  it('shows an injected fault in the telemetry and clears it (API)', async () => {
    const sn = simulator.gateways[0]!.model.miners[1]!.sn;
    const fault = simulator.injectFault({ name: 'pool_hijack', miner: sn });
    expect(fault).toMatchObject({ name: 'pool_hijack', deviceId, target: sn });
    expect(simulator.faults()).toEqual([fault]);
    await nextReport((m) => m.miners.find((x) => x.sn === sn)!.pool_address === HIJACK_POOL_ADDRESS);
    expect(simulator.clearFault({ name: 'pool_hijack' })).toEqual([fault]);
    const after = await nextReport(() => true);
    expect(after.miners.find((x) => x.sn === sn)!.pool_address).not.toBe(HIJACK_POOL_ADDRESS);
    expect(simulator.faults()).toEqual([]);
  });

  it('injects, lists and clears by name through the CLI and the control socket', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(simulator.controlPath).toBe(control);
      expect(
        await runFaultCommand(['voltage_sag', '--phase', '2', '--duration', '5m', '--control', control]),
      ).toBe(0);
      expect(JSON.parse(String(out.mock.calls.at(-1)![0]))).toMatchObject({
        fault: { name: 'voltage_sag', deviceId, target: 'phase B' },
      });
      await nextReport((m) => m.box.voltage[1] < 342);
      expect(await runFaultCommand(['list', '--control', control])).toBe(0);
      expect(JSON.parse(String(out.mock.calls.at(-1)![0])).faults).toHaveLength(1);
      // A fault the box cannot have is refused, with the reason.
      expect(await runFaultCommand(['flow_low', '--control', control])).toBe(1);
      expect(String(err.mock.calls.at(-1)![0])).toContain('no FBOX fits flow_low');
      expect(await runFaultCommand(['clear', 'voltage_sag', '--control', control])).toBe(0);
      expect(JSON.parse(String(out.mock.calls.at(-1)![0])).cleared).toHaveLength(1);
      await nextReport((m) => m.box.voltage.every((v) => v > 342));
      await expect(runFaultCommand(['list', '--control', join(tmpdir(), 'none-here.sock')])).rejects.toThrow(
        /no simulator answers/,
      );
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
