import { createServer } from 'node:net';
import { Code } from '@fbox/contracts';
import { startZlmApi, type ZlmApi } from '@fbox/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appsOnOneDatabase, buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createFbox,
  createMaster,
  createSubAccount,
  get,
  login,
  post,
} from '../../test/factories.js';

const ZLM = '/ff-plat-api/api/zlm';
const minute = 60_000;
const day = 86_400_000;

/** A port nothing listens on: the media server "down". */
const closedPort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

interface Mine {
  token: string;
  areaId: number;
  fboxId: number;
}

/** A master with a mine and an FBOX, signed in. */
const mine = async (
  app: FastifyInstance,
): Promise<Mine & { master: Awaited<ReturnType<typeof createMaster>> }> => {
  const master = await createMaster(app);
  const areaId = (await createArea(app, master.id)).id;
  const fboxId = (await createFbox(app, areaId)).id;
  return { master, token: await login(app, master), areaId, fboxId };
};

const addCamera = async (app: FastifyInstance, m: Mine, name: string, stream: string) => {
  const answer = (
    await post(
      app,
      `${ZLM}/camera/save`,
      { area_id: m.areaId, fbox_id: m.fboxId, name, stream },
      { token: m.token },
    )
  ).json();
  expect(answer.code, answer.msg).toBe(Code.OK);
  return answer.data as { id: number; name: string; stream: string };
};

const status = async (app: FastifyInstance, m: Mine, lang = 'en-us') =>
  (
    await get(
      app,
      `${ZLM}/getCameraStatus`,
      { area_id: String(m.areaId), fbox_id: String(m.fboxId) },
      { token: m.token, headers: { lang } },
    )
  ).json();

const images = async (app: FastifyInstance, m: Mine, extra: Record<string, unknown> = {}) =>
  (
    await post(
      app,
      `${ZLM}/listCapturedImages`,
      { area_id: m.areaId, fbox_id: m.fboxId, ...extra },
      { token: m.token },
    )
  ).json();

describeDb('cameras on a media server speaking ZLMediaKit (the simulator over HTTP)', () => {
  let zlm: ZlmApi;
  let t: TestApp;
  let m: Awaited<ReturnType<typeof mine>>;
  let aisle: { id: number };
  let door: { id: number };

  beforeAll(async () => {
    zlm = await startZlmApi({
      streams: () => [
        { app: 'live', stream: 'aisle' },
        { app: 'live', stream: 'door' },
      ],
      secret: 'zlm-secret',
      offlinePercent: 0,
    });
    t = await buildTestApp({ config: { zlm: { url: zlm.url, secret: 'zlm-secret' } } });
    m = await mine(t.app);
    aisle = await addCamera(t.app, m, 'Aisle', 'live/aisle');
    door = await addCamera(t.app, m, 'Door', 'live/door');
  });
  afterAll(async () => {
    await t?.close();
    await zlm?.stop();
  });

  it('answers each camera online or offline with its readers, from the media list', async () => {
    zlm.setOnline('live', 'door', false);
    const answer = await status(t.app, m);
    expect(answer.code).toBe(Code.OK);
    expect(answer.data).toMatchObject({
      configured: true,
      error: null,
      interval_minutes: 10,
      retention_days: 7,
    });
    const byName = Object.fromEntries(answer.data.cameras.map((c: { name: string }) => [c.name, c]));
    expect(byName.Aisle).toMatchObject({ id: aisle.id, online: true, readers: expect.any(Number) });
    expect(byName.Door).toMatchObject({ id: door.id, online: false, readers: 0 });
    zlm.setOnline('live', 'door', undefined);
  });

  it('validates cameras on their fields, never clamping', async () => {
    const save = (body: Record<string, unknown>) =>
      post(
        t.app,
        `${ZLM}/camera/save`,
        { area_id: m.areaId, fbox_id: m.fboxId, ...body },
        { token: m.token },
      ).then((r) => r.json());
    const fieldOf = (answer: { data: { errors: { field: string; rule: string }[] } }) =>
      answer.data.errors.map((e) => `${e.field}:${e.rule}`);
    expect(fieldOf(await save({ name: '', stream: 'live/x' }))).toEqual(['name:rule.required']);
    expect(fieldOf(await save({ name: 'x'.repeat(65), stream: 'live/x' }))).toEqual(['name:rule.tooLong']);
    for (const stream of ['live', 'live/x/y', 'live/a b', 'http://cam/1', 'rtsp://admin:pw@10.0.0.5/ch1'])
      expect(fieldOf(await save({ name: 'Cam', stream })), stream).toEqual(['stream:rule.cameraStream']);
    const zh = (
      await post(
        t.app,
        `${ZLM}/camera/save`,
        { area_id: m.areaId, fbox_id: m.fboxId, name: 'Cam', stream: 'x' },
        { token: m.token, headers: { lang: 'zh-cn' } },
      )
    ).json();
    expect(zh.msg).toContain('rtsp://');
    const url = await save({ name: 'Gate', stream: 'rtsp://10.0.0.5:554/Streaming/Channels/101' });
    expect(url.code).toBe(Code.OK);
    await post(t.app, `${ZLM}/camera/delete`, { area_id: m.areaId, id: url.data.id }, { token: m.token });
  });

  it('snapshots each online camera once per interval, across runs and processes, and keeps them for the retention', async () => {
    zlm.setOnline('live', 'door', false);
    const ran = await t.app.jobs.tick();
    expect(ran).toContain('camera-snapshots');
    let list = await images(t.app, m);
    expect(list.data.total).toBe(1);
    expect(list.data.items[0]).toMatchObject({
      camera_id: aisle.id,
      camera_name: 'Aisle',
      taken_at: t.clock.ms,
    });
    // Another run at the same time (another process, a restart): nothing is taken twice.
    expect(await t.app.cameraSnapshots.run()).toMatchObject({ taken: 0, offline: 1 });
    // The offline door is captured as soon as it is back; the aisle waits for its interval.
    zlm.setOnline('live', 'door', undefined);
    t.clock.advance(minute);
    expect(await t.app.cameraSnapshots.run()).toMatchObject({ taken: 1 });
    t.clock.advance(9 * minute);
    expect(await t.app.cameraSnapshots.run()).toMatchObject({ taken: 1 });
    list = await images(t.app, m);
    expect(list.data.items.map((i: { camera_name: string }) => i.camera_name)).toEqual([
      'Aisle',
      'Door',
      'Aisle',
    ]);
    const times = list.data.items.map((i: { taken_at: number }) => i.taken_at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // One camera, a time range.
    const one = await images(t.app, m, {
      camera_id: door.id,
      from: t.clock.ms - 9 * minute - 1,
      to: t.clock.ms,
    });
    expect(one.data.items).toHaveLength(1);

    // The image itself: a JPEG.
    const jpeg = await get(
      t.app,
      `${ZLM}/capturedImage`,
      { area_id: String(m.areaId), id: String(list.data.items[0].id) },
      { token: m.token },
    );
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect([...jpeg.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const status1 = await status(t.app, m);
    expect(status1.data.cameras.find((c: { id: number }) => c.id === aisle.id).last_snapshot_at).toBe(
      t.clock.ms,
    );

    // Retention: 7 days by default; 1 day once saved.
    t.clock.advance(2 * day);
    m.token = await login(t.app, m.master);
    const saved = (
      await post(
        t.app,
        `${ZLM}/settings/save`,
        { area_id: m.areaId, interval_minutes: 30, retention_days: 1 },
        { token: m.token },
      )
    ).json();
    expect(saved).toMatchObject({
      code: Code.OK,
      data: { interval_minutes: 30, retention_days: 1, configured: true },
    });
    const run = await t.app.cameraSnapshots.run();
    expect(run).toMatchObject({ expired: 3, taken: 2 });
    expect((await images(t.app, m)).data.total).toBe(2);
  });

  it('refuses settings out of range on their fields', async () => {
    const answer = (
      await post(
        t.app,
        `${ZLM}/settings/save`,
        { area_id: m.areaId, interval_minutes: 0, retention_days: 91 },
        { token: m.token },
      )
    ).json();
    expect(answer.code).toBe(Code.VALIDATION);
    expect(answer.data.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'interval_minutes',
      'retention_days',
    ]);
  });

  it('keeps cameras and images of a mine from a sub-account of another mine', async () => {
    const other = await createArea(t.app, m.master.id);
    const operator = await createSubAccount(t.app, m.master, [other.id]);
    const token = await login(t.app, operator);
    const [image] = (await images(t.app, m)).data.items;
    const asOperator = { token };
    const answers = [
      await get(
        t.app,
        `${ZLM}/getCameraStatus`,
        { area_id: String(m.areaId), fbox_id: String(m.fboxId) },
        asOperator,
      ),
      await post(t.app, `${ZLM}/listCapturedImages`, { area_id: m.areaId, fbox_id: m.fboxId }, asOperator),
      await get(
        t.app,
        `${ZLM}/capturedImage`,
        { area_id: String(m.areaId), id: String(image.id) },
        asOperator,
      ),
      // Its own mine with the foreign FBOX or image: not found either.
      await post(t.app, `${ZLM}/listCapturedImages`, { area_id: other.id, fbox_id: m.fboxId }, asOperator),
      await get(
        t.app,
        `${ZLM}/capturedImage`,
        { area_id: String(other.id), id: String(image.id) },
        asOperator,
      ),
      await post(t.app, `${ZLM}/camera/list`, { area_id: m.areaId, fbox_id: m.fboxId }, asOperator),
    ];
    for (const answer of answers) {
      expect(answer.headers['content-type']).toContain('application/json');
      expect(answer.json().code).toBe(Code.NOT_FOUND);
    }
    // An operator of the mine sees its cameras but may not change them.
    const viewer = await createSubAccount(t.app, m.master, [m.areaId]);
    const viewerToken = await login(t.app, viewer);
    expect((await status(t.app, { ...m, token: viewerToken })).data.cameras).toHaveLength(2);
    const refused = await post(
      t.app,
      `${ZLM}/camera/delete`,
      { area_id: m.areaId, id: aisle.id },
      { token: viewerToken },
    );
    expect(refused.json().code).toBe(Code.FORBIDDEN);
  });

  it('deletes a camera with its images', async () => {
    const extra = await addCamera(t.app, m, 'Spare', 'live/aisle');
    t.clock.advance(day);
    m.token = await login(t.app, m.master);
    await t.app.cameraSnapshots.run();
    expect((await images(t.app, m, { camera_id: extra.id })).data.total).toBe(1);
    const answer = (
      await post(t.app, `${ZLM}/camera/delete`, { area_id: m.areaId, id: extra.id }, { token: m.token })
    ).json();
    expect(answer.code).toBe(Code.OK);
    expect((await images(t.app, m, { camera_id: extra.id })).data.total).toBe(0);
  });

  it('applies a shorter interval at once, a longer one from the next snapshot', async () => {
    const save = (interval: number) =>
      post(
        t.app,
        `${ZLM}/settings/save`,
        { area_id: m.areaId, interval_minutes: interval, retention_days: 7 },
        { token: m.token },
      );
    t.clock.advance(day);
    m.token = await login(t.app, m.master);
    await save(60);
    expect(await t.app.cameraSnapshots.run()).toMatchObject({ taken: 2 });
    t.clock.advance(5 * minute);
    expect(await t.app.cameraSnapshots.run()).toMatchObject({ taken: 0 });
    await save(2);
    expect(await t.app.cameraSnapshots.run()).toMatchObject({ taken: 2 });
    expect(await t.app.cameraSnapshots.run()).toMatchObject({ taken: 0 });
  });
});

describeDb('cameras when the media server fails or is not configured', () => {
  let zlm: ZlmApi;
  beforeAll(async () => {
    zlm = await startZlmApi({
      streams: () => [{ app: 'live', stream: 'aisle' }],
      secret: 'right',
      offlinePercent: 0,
    });
  });
  afterAll(() => zlm?.stop());

  it('says "not configured" without ZLM_URL, and takes no snapshot', async () => {
    const t = await buildTestApp();
    try {
      const m = await mine(t.app);
      await addCamera(t.app, m, 'Aisle', 'live/aisle');
      const answer = await status(t.app, m);
      expect(answer.data).toMatchObject({ configured: false, error: null });
      expect(answer.data.cameras[0]).toMatchObject({ online: null, readers: null });
      expect(await t.app.cameraSnapshots.run()).toMatchObject({ taken: 0, failed: 0 });
      const settings = (
        await get(t.app, `${ZLM}/settings`, { area_id: String(m.areaId) }, { token: m.token })
      ).json();
      expect(settings.data).toEqual({ interval_minutes: 10, retention_days: 7, configured: false });
    } finally {
      await t.close();
    }
  });

  it('shows a wrong secret as a reason, on the status and on the camera, and never answers the secret', async () => {
    const t = await buildTestApp({ config: { zlm: { url: zlm.url, secret: 'wrong-secret' } } });
    try {
      const m = await mine(t.app);
      await addCamera(t.app, m, 'Aisle', 'live/aisle');
      const answer = await status(t.app, m);
      expect(answer.data.error).toMatch(/refused the secret/);
      expect(answer.data.cameras[0].online).toBeNull();
      expect(await t.app.cameraSnapshots.run()).toMatchObject({ taken: 0, failed: 1 });
      const zh = await status(t.app, m, 'zh-cn');
      expect(zh.data.error).toContain('ZLM_SECRET');
      expect(zh.data.cameras[0].last_error).toContain('ZLM_SECRET');
      expect(JSON.stringify(zh)).not.toContain('wrong-secret');
    } finally {
      await t.close();
    }
  });

  it('shows an unreachable media server as a reason, and a stream it cannot capture as one too', async () => {
    const down = await buildTestApp({
      config: { zlm: { url: `http://127.0.0.1:${await closedPort()}`, secret: 's' } },
    });
    try {
      const m = await mine(down.app);
      await addCamera(down.app, m, 'Aisle', 'live/aisle');
      expect((await status(down.app, m)).data.error).toMatch(/unreachable/);
    } finally {
      await down.close();
    }
    // A camera named by an address the media server does not pull, and one whose capture fails.
    const t = await buildTestApp({ config: { zlm: { url: zlm.url, secret: 'right' } } });
    try {
      const m = await mine(t.app);
      await addCamera(t.app, m, 'Gate', 'rtsp://10.0.0.9:554/Streaming/Channels/101');
      await addCamera(t.app, m, 'Aisle', 'live/aisle');
      const run = await t.app.cameraSnapshots.run();
      // The address camera is no proxy of the media server (not in its list): offline, not tried.
      expect(run).toMatchObject({ taken: 1, offline: 1 });
      // Gone between the list and the capture: the placeholder image is refused, with its reason.
      zlm.setOnline('live', 'aisle', false);
      await expect(t.app.zlm.snap('rtsp://127.0.0.1/live/aisle')).rejects.toMatchObject({
        kind: 'noSnapshot',
      });
    } finally {
      zlm.setOnline('live', 'aisle', undefined);
      await t.close();
    }
  });

  it('lets two processes on one database take each snapshot once', async () => {
    const { apps, clock, close } = await appsOnOneDatabase(2, { zlm: { url: zlm.url, secret: 'right' } });
    try {
      const [a, b] = apps as [FastifyInstance, FastifyInstance];
      const m = await mine(a);
      await addCamera(a, m, 'Aisle', 'live/aisle');
      const [ra, rb] = await Promise.all([a.cameraSnapshots.run(), b.cameraSnapshots.run()]);
      expect(ra.taken + rb.taken).toBe(1);
      clock.advance(10 * minute);
      const [sa, sb] = await Promise.all([a.cameraSnapshots.run(), b.cameraSnapshots.run()]);
      expect(sa.taken + sb.taken).toBe(1);
    } finally {
      await close();
    }
  });
});
