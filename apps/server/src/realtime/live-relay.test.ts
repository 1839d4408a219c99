import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ListenHandlers } from '../db/database.js';
import { type LiveEvent, LiveEvents } from './live-events.js';
import { type Channel, coalesce, LIVE_CHANNEL, LiveRelay, payloads } from './live-relay.js';

const command = (commandId: string): LiveEvent => ({
  type: 'command',
  areaId: 1,
  fboxId: 3,
  commandId,
  status: 'sent',
  minerId: 7,
  tankId: null,
});

/** One PostgreSQL as the relays see it: every NOTIFY reaches every listener, the sender's too. */
const sharedChannel = () => {
  const listeners: ListenHandlers[] = [];
  const sent: string[] = [];
  const channel: Channel = {
    listen: (name, handlers) => {
      expect(name).toBe(LIVE_CHANNEL);
      listeners.push(handlers);
      handlers.onListening(true);
    },
    notify: async (_name, payload) => {
      sent.push(payload);
      for (const listener of listeners) listener.onNotify(payload);
    },
  };
  return { channel, sent };
};

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

describe('live relay', () => {
  it('merges telemetry events of a mine and keeps the others in order', () => {
    expect(
      coalesce([
        { type: 'telemetry', areaId: 1, fboxIds: [1, 2] },
        command('a'),
        { type: 'telemetry', areaId: 2, fboxIds: [9] },
        { type: 'telemetry', areaId: 1, fboxIds: [2, 3] },
        { type: 'status', areaId: 1, fboxId: 4, online: false },
      ]),
    ).toEqual([
      { type: 'telemetry', areaId: 1, fboxIds: [1, 2, 3] },
      command('a'),
      { type: 'telemetry', areaId: 2, fboxIds: [9] },
      { type: 'status', areaId: 1, fboxId: 4, online: false },
    ]);
  });

  it('cuts events into payloads under the limit, splitting a telemetry event of many FBOXes', () => {
    const many = Array.from({ length: 5000 }, (_, i) => 100_000 + i);
    const events: LiveEvent[] = [command('a'), { type: 'telemetry', areaId: 1, fboxIds: many }, command('b')];
    const out = payloads('origin', events, 7500);
    expect(out.length).toBeGreaterThan(1);
    for (const payload of out) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7500);
    const back = out.flatMap((p) => (JSON.parse(p) as { o: string; e: LiveEvent[] }).e);
    expect(back[0]).toEqual(command('a'));
    expect(back.at(-1)).toEqual(command('b'));
    expect(back.flatMap((e) => (e.type === 'telemetry' ? e.fboxIds : []))).toEqual(many);
  });

  it("delivers a process's events to the others once, and not again to itself", async () => {
    const { channel, sent } = sharedChannel();
    const [a, b] = [new LiveEvents(), new LiveEvents()];
    const heard = { a: [] as LiveEvent[], b: [] as LiveEvent[] };
    a.on('live', (e) => heard.a.push(e));
    b.on('live', (e) => heard.b.push(e));
    const relays = [new LiveRelay(a, channel, log, 5), new LiveRelay(b, channel, log, 5)];
    for (const relay of relays) relay.start();

    a.publish({ type: 'telemetry', areaId: 1, fboxIds: [1] });
    a.publish({ type: 'telemetry', areaId: 1, fboxIds: [2] });
    a.publish(command('x'));
    await relays[0]!.flush();
    // One notification for the run, merged.
    expect(sent).toHaveLength(1);
    expect(heard.a).toHaveLength(3);
    expect(heard.b).toEqual([{ type: 'telemetry', areaId: 1, fboxIds: [1, 2] }, command('x')]);

    // Malformed notifications are ignored.
    channel.notify(LIVE_CHANNEL, 'not json');
    channel.notify(LIVE_CHANNEL, JSON.stringify({ o: 'other', e: [{ type: 'telemetry' }] }));
    expect(heard.b).toHaveLength(2);

    await relays[1]!.stop();
    b.publish(command('y'));
    await relays[1]!.flush();
    expect(heard.a).toHaveLength(3);
  });
});
