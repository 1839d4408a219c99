import type { LiveMessage } from '@fbox/contracts';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alarmKeys } from '../features/alarm';
import { boardKeys } from '../features/board';
import { fboxKeys, minerKeys, tankKeys } from '../features/device';
import { homeKeys } from '../features/home';
import {
  backoffMs,
  fallbackRefetchInterval,
  liveStateStore,
  liveUrl,
  parseLiveFrame,
} from '../lib/live-socket';
import { createLiveInvalidator, liveInvalidations } from './live-updates';

describe('live invalidation mapping', () => {
  it('telemetry marks home, lists and the named FBOXes stale, not other FBOX details or history', () => {
    const keys = liveInvalidations({ type: 'telemetry', fboxIds: [3, 4] });
    expect(keys).toContainEqual(homeKeys.all);
    expect(keys).toContainEqual(fboxKeys.lists());
    expect(keys).toContainEqual(fboxKeys.detail(3));
    expect(keys).toContainEqual(fboxKeys.detail(4));
    expect(keys).not.toContainEqual(fboxKeys.detail(5));
    expect(keys).toContainEqual(minerKeys.lists());
    expect(keys).toContainEqual(tankKeys.lists());
    expect(keys.some((key) => key.includes('history'))).toBe(false);
  });

  it('a status change refreshes that FBOX and the counts', () => {
    const keys = liveInvalidations({ type: 'status', fboxId: 9, online: false });
    expect(keys).toContainEqual(fboxKeys.detail(9));
    expect(keys).toContainEqual(homeKeys.all);
  });

  it('telemetry, status changes and alerts refresh the open boards, not the board list', () => {
    const messages: LiveMessage[] = [
      { type: 'telemetry', fboxIds: [3] },
      { type: 'status', fboxId: 3, online: true },
      { type: 'alert', alertId: 1, level: 1, open: true },
    ];
    for (const message of messages) {
      const keys = liveInvalidations(message);
      expect(keys).toContainEqual(boardKeys.screens());
      expect(keys).not.toContainEqual(boardKeys.all);
    }
    expect(liveInvalidations({ type: 'alert', alertId: 1, level: 1, open: false })).toContainEqual(
      alarmKeys.all,
    );
    expect(liveInvalidations({ type: 'inbox' })).not.toContainEqual(boardKeys.screens());
  });

  it('a command refreshes only its miner or tank (its command history)', () => {
    expect(
      liveInvalidations({
        type: 'command',
        commandId: 'c',
        status: 'acknowledged',
        minerId: 7,
        tankId: null,
      }),
    ).toEqual([minerKeys.detail(7)]);
    expect(
      liveInvalidations({ type: 'command', commandId: 'c', status: 'failed', minerId: null, tankId: 2 }),
    ).toEqual([tankKeys.detail(2)]);
  });

  it('gathers a burst of messages into one invalidation per key', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const invalidator = createLiveInvalidator(client, 1000);
    for (let i = 0; i < 50; i += 1) invalidator.push({ type: 'telemetry', fboxIds: [1] });
    expect(spy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    const calls = spy.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    expect(new Set(calls).size).toBe(calls.length);
    expect(calls).toContain(JSON.stringify(fboxKeys.detail(1)));
    invalidator.stop();
  });

  it('lets a read slower than the window finish, and reads again after the messages it missed', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    let reads = 0;
    const observer = new QueryObserver(client, {
      queryKey: alarmKeys.all,
      queryFn: async () => {
        reads += 1;
        const read = reads;
        await new Promise((resolve) => setTimeout(resolve, 2500));
        return read;
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(2500);
    expect(observer.getCurrentResult().data).toBe(1);
    // An alert a second for ten seconds, each read taking 2.5 s: every read finishes.
    const invalidator = createLiveInvalidator(client, 1000);
    const seen: number[] = [];
    for (let second = 0; second < 10; second += 1) {
      invalidator.push({ type: 'alert', alertId: second, level: 1, open: true });
      await vi.advanceTimersByTimeAsync(1000);
      seen.push(observer.getCurrentResult().data ?? 0);
    }
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(3);
    // The last messages came during a read: one more read follows it, then all is quiet.
    await vi.advanceTimersByTimeAsync(10_000);
    const settled = reads;
    expect(observer.getCurrentResult().data).toBe(settled);
    expect(client.isFetching()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reads).toBe(settled);
    invalidator.stop();
    unsubscribe();
    vi.useRealTimers();
  });
});

describe('live socket helpers', () => {
  afterEach(() => {
    vi.useRealTimers();
    liveStateStore.set('down');
  });

  it('reconnects with growing delays capped at 30 s', () => {
    expect([0, 1, 2, 3, 10].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 30_000]);
  });

  it('polls every 15 s only while the socket is down', () => {
    liveStateStore.set('open');
    expect(fallbackRefetchInterval()).toBe(false);
    liveStateStore.set('down');
    expect(fallbackRefetchInterval()).toBe(15_000);
  });

  it('builds the same-origin URL and ignores unknown frames', () => {
    expect(liveUrl(4, { protocol: 'https:', host: 'x.example' })).toBe('wss://x.example/ws?area_id=4');
    expect(liveUrl({ kiosk: 'a_b-C' }, { protocol: 'http:', host: 'tv.example' })).toBe(
      'ws://tv.example/ws?kiosk=a_b-C',
    );
    expect(parseLiveFrame('{"type":"status","fboxId":1,"online":true}')).toEqual({
      type: 'status',
      fboxId: 1,
      online: true,
    });
    expect(parseLiveFrame('{"type":"nope"}')).toBeNull();
    expect(parseLiveFrame('not json')).toBeNull();
  });
});
