import type { CommandMessage } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { CommandRunner, type CommandRunnerOptions } from './commands.js';
import { sleep } from './limit.js';
import type { CommandResult, Endpoint, PoolSetting } from './protocol.js';
import type { MinerDriver } from './protocols.js';
import type { KnownMiner } from './registry.js';

const known = (sn: string, protocol: string, overrides: Partial<KnownMiner> = {}): KnownMiner => ({
  sn,
  host: '10.0.0.7',
  port: 4028,
  protocol,
  family: protocol,
  brand: '',
  model: '',
  firmware: '',
  worker: 'acct.001',
  pool: 'btc.viabtc.io',
  pool_address: 'stratum+tcp://btc.viabtc.io:3333',
  firstSeen: 0,
  lastSeen: 0,
  vanished: false,
  displaced: false,
  ...overrides,
});

/** A driver that records its calls; each write takes `ms` and can be told to refuse. */
const recordingDriver = (name: string, writes: ('mode' | 'pool')[], ms = 0) => {
  const calls: { what: string; endpoint: Endpoint; arg?: unknown; start: number; end: number }[] = [];
  let running = 0;
  let overlapped = false;
  const call = (what: string, arg?: unknown) => async (endpoint: Endpoint) => {
    running++;
    if (running > 1) overlapped = true;
    const start = Date.now();
    await sleep(ms);
    running--;
    calls.push({ what, endpoint, arg, start, end: Date.now() });
    return { ok: true } as CommandResult;
  };
  const driver: MinerDriver = {
    name,
    restart: (endpoint) => call('restart')(endpoint),
    ...(writes.includes('mode') && {
      setMode: (endpoint: Endpoint, mode: 'high' | 'low') => call('mode', mode)(endpoint),
    }),
    ...(writes.includes('pool') && {
      setPool: (endpoint: Endpoint, pool: PoolSetting) => call('pool', pool)(endpoint),
    }),
  };
  return { driver, calls, overlapped: () => overlapped };
};

const command = (kind: CommandMessage['kind'], target: CommandMessage['target'], params = {}) => ({
  id: `c-${Math.random().toString(36).slice(2)}`,
  kind,
  target,
  params,
});

const setup = (overrides: Partial<CommandRunnerOptions> = {}) => {
  const wm = recordingDriver('whatsminer', ['mode', 'pool'], 30);
  const avalon = recordingDriver('cgminer', []);
  const miners = new Map([
    ['WM-1', known('WM-1', 'whatsminer', { worker: 'acct.wm1' })],
    ['AV-1', known('AV-1', 'cgminer', { host: '10.0.0.8', family: 'avalon', worker: '' })],
    ['GONE', known('GONE', 'cgminer', { displaced: true })],
  ]);
  const intervals: number[] = [];
  const switches: { outlet: number; status: string; at: number }[] = [];
  const runner = new CommandRunner({
    miner: (sn) => miners.get(sn),
    driver: (miner) => (miner.protocol === 'whatsminer' ? wm.driver : avalon.driver),
    switchOutlet: async (outlet, status) => {
      switches.push({ outlet, status, at: Date.now() });
      return outlet > 8 ? { ok: false, error: `outlet ${outlet} is on no configured PDU` } : { ok: true };
    },
    setReportingInterval: (seconds) => intervals.push(seconds),
    ...overrides,
  });
  const run = async (...args: Parameters<typeof command>) => {
    const ack = await runner.execute(command(...args));
    return ack.ok ? 'ok' : ack.error;
  };
  return { runner, run, wm, avalon, intervals, switches };
};

describe('command runner: the cloud’s commands mapped to the miners’ protocols', () => {
  it('maps miner.mode and miner.pool to the protocol’s writes, filling the pool’s missing part', async () => {
    const { run, wm } = setup();
    expect(await run('miner.mode', { sn: 'WM-1' }, { mode: 'low' })).toBe('ok');
    expect(await run('miner.pool', { sn: 'WM-1' }, { pool_address: 'stratum+tcp://pool.example:3333' })).toBe(
      'ok',
    );
    expect(await run('miner.resave_account', { sn: 'WM-1' }, { worker: 'acct.new' })).toBe('ok');
    // As the console sends it: a bare host:port, and the password the user typed.
    expect(
      await run(
        'miner.pool',
        { sn: 'WM-1' },
        { pool_address: 'pool.example:443', worker: 'w', password: 'pw' },
      ),
    ).toBe('ok');
    expect(wm.calls.map(({ what, arg, endpoint }) => [what, arg, endpoint])).toEqual([
      ['mode', 'low', { host: '10.0.0.7', port: 4028 }],
      [
        'pool',
        { url: 'stratum+tcp://pool.example:3333', worker: 'acct.wm1', password: 'x' },
        { host: '10.0.0.7', port: 4028 },
      ],
      [
        'pool',
        { url: 'stratum+tcp://btc.viabtc.io:3333', worker: 'acct.new', password: 'x' },
        { host: '10.0.0.7', port: 4028 },
      ],
      [
        'pool',
        { url: 'stratum+tcp://pool.example:443', worker: 'w', password: 'pw' },
        { host: '10.0.0.7', port: 4028 },
      ],
    ]);
  });

  it('refuses bad params with the reason, as the simulator does', async () => {
    const { run, wm } = setup();
    expect(await run('miner.mode', { sn: 'WM-1' }, { mode: 'turbo' })).toMatch(/^invalid params: mode: /);
    expect(await run('miner.pool', { sn: 'WM-1' }, { pool_address: 'http://x' })).toBe(
      'invalid params: pool_address: expected stratum+tcp://host:port',
    );
    expect(await run('miner.overclock', { sn: 'WM-1' }, {})).toBe('invalid params: give enabled or status');
    expect(await run('pdu.outlet', { outlet: 1 }, { status: 'maybe' })).toMatch(/^invalid params: status: /);
    expect(await run('fbox.config', {}, { delay_switch_ms: -1 })).toMatch(
      /^invalid params: delay_switch_ms: /,
    );
    expect(wm.calls).toEqual([]);
  });

  it('answers honestly what a protocol or the collector cannot do', async () => {
    const { run } = setup();
    expect(await run('miner.mode', { sn: 'AV-1' }, { mode: 'low' })).toBe(
      'miner.mode is not supported by cgminer',
    );
    expect(await run('miner.overclock', { sn: 'WM-1' }, { status: 'on' })).toBe(
      'miner.overclock is not supported by whatsminer',
    );
    expect(await run('miner.restart', { sn: 'NOPE' })).toBe('unknown miner sn NOPE');
    expect(await run('miner.restart', {})).toBe('target.sn is required');
    expect(await run('miner.restart', { sn: 'GONE' })).toMatch(/^miner unreachable: /);
    for (const kind of ['tank.oil_setting', 'tank.controller_switch', 'meter.reset', 'miner.logs'] as const)
      expect(await run(kind, { tank_no: 1 })).toBe(`${kind} is not supported by the site collector`);
    expect(await run('pdu.outlet', {}, { status: 'on' })).toBe('target.outlet is required');
    expect(await run('pdu.outlet', { outlet: 9 }, { status: 'on' })).toBe('outlet 9 is on no configured PDU');
    const noPdus = setup({ switchOutlet: null });
    expect(await noPdus.run('pdu.outlet', { outlet: 1 }, { status: 'on' })).toMatch(/no PDU is configured/);
  });

  it('refuses a pool change when neither the command nor the last reading names a worker', async () => {
    const { run, avalon } = setup({
      driver: () => ({ ...recordingDriver('cgminer', ['pool']).driver }),
    });
    expect(await run('miner.pool', { sn: 'AV-1' }, { pool_address: 'stratum+tcp://p.example:3333' })).toBe(
      'miner.pool: no worker given, and none known for miner AV-1',
    );
    expect(avalon.calls).toEqual([]);
  });

  it('never runs two writes at once on one miner', async () => {
    const { runner, wm } = setup();
    const acks = await Promise.all([
      runner.execute(command('miner.mode', { sn: 'WM-1' }, { mode: 'low' })),
      runner.execute(command('miner.restart', { sn: 'WM-1' })),
      runner.execute(command('miner.mode', { sn: 'WM-1' }, { mode: 'high' })),
    ]);
    expect(acks.every((ack) => ack.ok)).toBe(true);
    expect(wm.overlapped()).toBe(false);
    expect(wm.calls.map((c) => c.what)).toEqual(['mode', 'restart', 'mode']);
  });

  it('applies the reporting interval and the Delay Switch, and names what it cannot apply', async () => {
    const { run, runner, intervals, switches } = setup();
    expect(await run('fbox.config', {}, { reporting_interval_s: 15, delay_switch_ms: 120 })).toBe('ok');
    expect(intervals).toEqual([15]);
    expect(runner.delaySwitchMs).toBe(120);
    expect(
      await run(
        'fbox.config',
        {},
        { voltage_min: 180, voltage_max: 250, reporting_interval_s: 120, delay_switch_ms: 80 },
      ),
    ).toBe(
      'fbox.config: cannot apply reporting_interval_s 120 (the collector polls every 5–60 s); applied delay_switch_ms',
    );
    // The console's save sends the box's alarm bands too: taken (no sensor here can cross them).
    expect(
      await run(
        'fbox.config',
        {},
        {
          voltage_min: 342,
          voltage_max: 418,
          temperature_max: 45,
          humidity_max: 90,
          reporting_interval_s: 30,
        },
      ),
    ).toBe('ok');
    expect(intervals).toEqual([15, 30]);
    expect(runner.delaySwitchMs).toBe(80);

    // Outlet commands arriving together are switched one after another, the Delay Switch apart.
    const acks = await Promise.all(
      [1, 2, 3].map((outlet) => runner.execute(command('pdu.outlet', { outlet }, { status: 'off' }))),
    );
    expect(acks.every((ack) => ack.ok)).toBe(true);
    expect(switches.map((s) => s.outlet)).toEqual([1, 2, 3]);
    for (let i = 1; i < switches.length; i++)
      expect(switches[i]!.at - switches[i - 1]!.at).toBeGreaterThanOrEqual(75);
  });
});
