import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './model/clock.js';
import { startZlmApi, type ZlmApi } from './zlm-api.js';

const clock = new ManualClock(Date.UTC(2026, 10, 25, 10));
const streams = [
  { app: 'live', stream: 'box1-cam1', label: 'Box 1 cam 1' },
  { app: 'live', stream: 'box1-cam2' },
];
let zlm: ZlmApi;

beforeAll(async () => {
  zlm = await startZlmApi({ streams: () => streams, secret: 's3cret', clock, offlinePercent: 0 });
});
afterAll(() => zlm.stop());

const call = async (api: string, params: Record<string, string>) => {
  const res = await fetch(`${zlm.url}/index/api/${api}?${new URLSearchParams(params)}`);
  return { res, type: res.headers.get('content-type') ?? '' };
};
const json = async (api: string, params: Record<string, string>) =>
  (await (await call(api, params)).res.json()) as { code: number; msg?: string; data?: unknown[] };

describe("the simulator's media server (ZLMediaKit's HTTP API)", () => {
  it('refuses a missing secret with -300 and a wrong one with -100', async () => {
    expect(await json('getMediaList', {})).toMatchObject({ code: -300 });
    expect(await json('getMediaList', { secret: 'nope' })).toEqual({ code: -100, msg: 'Incorrect secret' });
    expect(
      await json('getSnap', { secret: 'nope', url: 'rtsp://x/live/a', timeout_sec: '1', expire_sec: '1' }),
    ).toMatchObject({ code: -100 });
  });

  it('lists each online stream once per schema, filtered by app and stream; no data when none match', async () => {
    const all = await json('getMediaList', { secret: 's3cret' });
    expect(all.code).toBe(0);
    expect(all.data).toHaveLength(4);
    const one = await json('getMediaList', {
      secret: 's3cret',
      app: 'live',
      stream: 'box1-cam1',
      schema: 'rtsp',
    });
    expect(one.data).toEqual([
      expect.objectContaining({
        app: 'live',
        stream: 'box1-cam1',
        schema: 'rtsp',
        vhost: '__defaultVhost__',
        readerCount: expect.any(Number),
        totalReaderCount: expect.any(Number),
        originType: expect.any(Number),
      }),
    ]);
    zlm.setOnline('live', 'box1-cam1', false);
    const none = await json('getMediaList', { secret: 's3cret', app: 'live', stream: 'box1-cam1' });
    expect(none).toEqual({ code: 0 });
    zlm.setOnline('live', 'box1-cam1', undefined);
  });

  it('also takes its arguments from a form or JSON body', async () => {
    const form = await fetch(`${zlm.url}/index/api/getMediaList`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'secret=s3cret&stream=box1-cam2',
    });
    expect(((await form.json()) as { data: unknown[] }).data).toHaveLength(2);
    const body = await fetch(`${zlm.url}/index/api/getMediaList`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret: 'wrong' }),
    });
    expect(((await body.json()) as { code: number }).code).toBe(-100);
  });

  it('snaps an online stream as a JPEG that changes over time, and answers the placeholder PNG otherwise', async () => {
    const params = {
      secret: 's3cret',
      url: 'rtsp://127.0.0.1/live/box1-cam1',
      timeout_sec: '5',
      expire_sec: '1',
    };
    const first = await call('getSnap', params);
    expect(first.type).toBe('image/jpeg');
    const a = Buffer.from(await first.res.arrayBuffer());
    const image = jpeg.decode(a);
    expect([image.width, image.height]).toEqual([480, 270]);
    clock.advance(60_000);
    const b = Buffer.from(await (await call('getSnap', params)).res.arrayBuffer());
    expect(b.equals(a)).toBe(false);

    zlm.setOnline('live', 'box1-cam1', false);
    const offline = await call('getSnap', params);
    expect(offline.type).toBe('image/png');
    const unknown = await call('getSnap', { ...params, url: 'rtsp://127.0.0.1/live/nope' });
    expect(unknown.type).toBe('image/png');
    await unknown.res.arrayBuffer();
    zlm.setOnline('live', 'box1-cam1', undefined);
    expect(await json('getSnap', { secret: 's3cret' })).toMatchObject({ code: -300 });
  });

  it('takes some streams offline now and then on its own', async () => {
    const flaky = await startZlmApi({
      streams: () => streams,
      secret: 'x',
      clock,
      offlinePercent: 50,
      seed: 4,
    });
    try {
      const seen = new Set<number>();
      for (let i = 0; i < 12; i++) {
        clock.advance(15 * 60_000);
        const answer = (await (await fetch(`${flaky.url}/index/api/getMediaList?secret=x`)).json()) as {
          data?: unknown[];
        };
        seen.add(answer.data?.length ?? 0);
      }
      expect(seen.size).toBeGreaterThan(1);
    } finally {
      await flaky.stop();
    }
  });
});
