import type { LiveMessage } from '@fbox/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createArea, createMaster, login } from '../test/factories.js';
import { LiveEvents } from './live-events.js';
import { LiveHub } from './live-hub.js';

/** Collects the messages of a socket; `next()` resolves with the next one (or rejects after a while). */
const inbox = (socket: WebSocket) => {
  const queue: LiveMessage[] = [];
  const waiters: ((m: LiveMessage) => void)[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as LiveMessage;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  return {
    next: (ms = 3000) =>
      new Promise<LiveMessage>((resolve, reject) => {
        const queued = queue.shift();
        if (queued) return resolve(queued);
        const timer = setTimeout(() => reject(new Error('no message')), ms);
        waiters.push((m) => {
          clearTimeout(timer);
          resolve(m);
        });
      }),
    pending: () => queue.length,
  };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeDb('live WebSocket (/ws)', () => {
  let t: TestApp;
  let token: string;
  let areaId: number;
  let otherAreaId: number;
  const sockets: WebSocket[] = [];
  beforeEach(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    otherAreaId = (await createArea(t.app, master.id)).id;
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.terminate();
    await t.close();
  });

  /** Opens a socket with its inbox attached before the first frame arrives. */
  const open = async (path: string, headers: Record<string, string> = {}) => {
    let messages: ReturnType<typeof inbox> | undefined;
    const socket = await t.app.injectWS(
      path,
      { headers: { host: 'fbox.example', ...headers } },
      {
        onInit: (ws) => {
          messages = inbox(ws);
        },
      },
    );
    sockets.push(socket);
    return { socket, messages: messages! };
  };

  it('pushes the area’s events to a socket opened with the token, none of other areas', async () => {
    const { messages } = await open(`/ws?area_id=${areaId}&logintoken=${token}`, {
      origin: 'https://fbox.example',
    });
    expect(await messages.next()).toEqual({ type: 'hello', areaId });
    t.app.live.publish({ type: 'status', areaId: otherAreaId, fboxId: 9, online: true });
    t.app.live.publish({ type: 'status', areaId, fboxId: 7, online: false });
    expect(await messages.next()).toEqual({ type: 'status', fboxId: 7, online: false });
    t.app.live.publish({
      type: 'command',
      areaId,
      fboxId: 7,
      commandId: 'c1',
      status: 'acknowledged',
      minerId: 3,
      tankId: null,
    });
    expect(await messages.next()).toEqual({
      type: 'command',
      commandId: 'c1',
      status: 'acknowledged',
      minerId: 3,
      tankId: null,
    });
    t.app.live.publish({ type: 'telemetry', areaId, fboxIds: [2, 1] });
    t.app.live.publish({ type: 'telemetry', areaId, fboxIds: [2, 5] });
    expect(await messages.next()).toEqual({ type: 'telemetry', fboxIds: [1, 2, 5] });
    await sleep(50);
    expect(messages.pending()).toBe(0);
  });

  it('accepts the Admin-Token cookie and the /api alias', async () => {
    const { messages } = await open(`/api/ws?area_id=${areaId}`, { cookie: `Admin-Token=${token}` });
    expect(await messages.next()).toEqual({ type: 'hello', areaId });
  });

  it('refuses no token, a foreign area, a bad area id and a cross-site Origin', async () => {
    await expect(open(`/ws?area_id=${areaId}`)).rejects.toThrow('401');
    await expect(open(`/ws?area_id=${areaId}&logintoken=nope`)).rejects.toThrow('401');
    const intruder = await login(t.app, await createMaster(t.app));
    await expect(open(`/ws?area_id=${areaId}&logintoken=${intruder}`)).rejects.toThrow('404');
    await expect(open(`/ws?area_id=abc&logintoken=${token}`)).rejects.toThrow('400');
    await expect(
      open(`/ws?area_id=${areaId}&logintoken=${token}`, { origin: 'https://evil.example' }),
    ).rejects.toThrow('403');
    expect(t.app.liveHub.size()).toBe(0);
  });

  it('lets a board’s kiosk link hear its mine’s device notices only, until the link is revoked', async () => {
    const master = (await t.app.db.selectFrom('users').select(['id']).executeTakeFirstOrThrow()).id;
    const caller = { id: master, isMaster: true, parentId: null, role: 'master', area: null } as const;
    const board = await t.app.boards.save(caller, {
      area_id: areaId,
      type: 'dataBoard',
      title: 'Wall',
      fbox_ids: [],
      theme: 'dark',
      metric: 'status',
      page_seconds: 20,
    });
    const { token: kiosk } = await t.app.boards.createKiosk(caller, areaId, board.id);
    const { messages } = await open(`/ws?kiosk=${kiosk}`, { origin: 'https://fbox.example' });
    expect(await messages.next()).toEqual({ type: 'hello', areaId });
    t.app.live.publish({ type: 'alert', areaId, alertId: 5, ruleId: 1, level: 1, open: true });
    t.app.live.publish({
      type: 'command',
      areaId,
      fboxId: 7,
      commandId: 'c1',
      status: 'sent',
      minerId: 1,
      tankId: null,
    });
    t.app.live.publish({ type: 'status', areaId, fboxId: 7, online: false });
    expect(await messages.next()).toEqual({ type: 'status', fboxId: 7, online: false });
    expect(messages.pending()).toBe(0);
    await t.app.boards.revokeKiosk(caller, areaId, board.id);
    await expect(open(`/ws?kiosk=${kiosk}`)).rejects.toThrow('401');
    await expect(open(`/ws?kiosk=nope&area_id=${areaId}&logintoken=${token}`)).rejects.toThrow('401');
  });

  it('closes sockets cleanly on shutdown', async () => {
    const { socket, messages } = await open(`/ws?area_id=${areaId}&logintoken=${token}`);
    await messages.next();
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await t.app.close();
    expect(await closed).toBe(1001);
  });
});

describe('LiveHub telemetry coalescing', () => {
  it('sends at most one telemetry message per window per area, merging box ids', async () => {
    const live = new LiveEvents();
    const hub = new LiveHub(live, 200);
    const received: string[] = [];
    const leave = hub.join(1, { send: (text) => received.push(text) });
    live.publish({ type: 'telemetry', areaId: 1, fboxIds: [1] });
    await sleep(20);
    live.publish({ type: 'telemetry', areaId: 1, fboxIds: [2] });
    live.publish({ type: 'telemetry', areaId: 1, fboxIds: [3] });
    await sleep(60);
    expect(received).toEqual([JSON.stringify({ type: 'telemetry', fboxIds: [1] })]);
    await sleep(250);
    expect(received.slice(1)).toEqual([JSON.stringify({ type: 'telemetry', fboxIds: [2, 3] })]);
    leave();
    live.publish({ type: 'telemetry', areaId: 1, fboxIds: [4] });
    await sleep(250);
    expect(received).toHaveLength(2);
    hub.close();
  });
});
