import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createFbox,
  createMaster,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';

/** A JPEG's first bytes (SOI and a JFIF APP0 marker) and some body: what the tile serves back. */
const jpeg = (tag: number) => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, tag, 0xff, 0xd9]);

describeDb('data boards: the camera tile', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let box: CreatedFbox;

  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    box = await createFbox(t.app, areaId, { name: 'Box C' });
  });
  afterEach(() => t.close());

  const camera = async (fbox: { id: number }, name: string) =>
    (
      await t.app.db
        .insertInto('cameras')
        .values({ fbox_id: fbox.id, name, stream: `live/${name}`, created_at: 0, updated_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const snapshot = async (cameraId: number, takenAt: number, tag: number) =>
    (
      await t.app.db
        .insertInto('camera_images')
        .values({ camera_id: cameraId, taken_at: takenAt, bytes: 9, jpeg: jpeg(tag) })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const save = async (body: Record<string, unknown>) =>
    (
      await post(
        t.app,
        '/index/fbox.board/save',
        { area_id: areaId, type: 'dataBoard', title: 'Wall', ...body },
        { token },
      )
    ).json();
  const data = async (id: number) =>
    (
      await get(t.app, '/index/fbox.board/data', { area_id: String(areaId), id: String(id) }, { token })
    ).json();
  const kioskImage = (kiosk: string, id: number) =>
    get(t.app, '/index/fbox.board/kiosk_camera_image', { token: kiosk, id: String(id) });

  it("shows the board's camera with its latest snapshot, which a kiosk link reads and nothing else", async () => {
    const door = await camera(box, 'Door');
    const aisle = await camera(box, 'Aisle');
    await snapshot(door, 1_000, 1);
    const latest = await snapshot(door, 2_000, 2);
    const other = await snapshot(aisle, 3_000, 3);

    const saved = await save({ camera_id: door });
    expect(saved.code).toBe(Code.OK);
    expect(saved.data.camera_id).toBe(door);
    const answer = await data(saved.data.id);
    expect(answer.data.camera).toEqual({
      id: door,
      name: 'Door',
      fbox_name: 'Box C',
      image: { id: latest, taken_at: 2_000 },
    });

    const { token: kiosk } = (
      await post(t.app, '/index/fbox.board/kiosk_create', { area_id: areaId, id: saved.data.id }, { token })
    ).json().data;
    const image = await kioskImage(kiosk, latest);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect([...image.rawPayload]).toEqual([...jpeg(2)]);
    // Another camera's snapshot, or one that does not exist: not found.
    expect((await kioskImage(kiosk, other)).json().code).toBe(Code.NOT_FOUND);
    expect((await kioskImage(kiosk, 999_999)).json().code).toBe(Code.NOT_FOUND);
    // Revoked: refused at once.
    await post(t.app, '/index/fbox.board/kiosk_revoke', { area_id: areaId, id: saved.data.id }, { token });
    expect((await kioskImage(kiosk, latest)).json().code).toBe(Code.NOT_FOUND);
  });

  it('keeps a board without a camera free of a tile; a deleted camera leaves it without one', async () => {
    const door = await camera(box, 'Door');
    const plain = await save({ camera_id: '' });
    expect(plain.data.camera_id).toBeNull();
    expect((await data(plain.data.id)).data.camera).toBeUndefined();
    const { token: kiosk } = (
      await post(t.app, '/index/fbox.board/kiosk_create', { area_id: areaId, id: plain.data.id }, { token })
    ).json().data;
    const image = await snapshot(door, 1_000, 1);
    expect((await kioskImage(kiosk, image)).json().code).toBe(Code.NOT_FOUND);

    const withCamera = await save({ camera_id: door });
    expect((await data(withCamera.data.id)).data.camera.image).toEqual({ id: image, taken_at: 1_000 });
    await t.app.db.deleteFrom('camera_images').where('camera_id', '=', door).execute();
    expect((await data(withCamera.data.id)).data.camera.image).toBeNull();
    await t.app.db.deleteFrom('cameras').where('id', '=', door).execute();
    expect((await data(withCamera.data.id)).data.camera).toBeUndefined();
  });

  it("refuses another mine's camera and keeps no camera on other board types", async () => {
    const otherArea = (await createArea(t.app, master.id)).id;
    const foreign = await camera(await createFbox(t.app, otherArea, { name: 'Far box' }), 'Far');
    const before = await t.app.db.selectFrom('boards').select('id').execute();
    expect((await save({ camera_id: foreign })).code).toBe(Code.NOT_FOUND);
    expect(await t.app.db.selectFrom('boards').select('id').execute()).toEqual(before);
    const mine = await camera(box, 'Door');
    const tankBoard = await save({ type: 'tankBoard', camera_id: mine });
    expect(tankBoard.code).toBe(Code.OK);
    expect(tankBoard.data.camera_id).toBeNull();
  });
});
