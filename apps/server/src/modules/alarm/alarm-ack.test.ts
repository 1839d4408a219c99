import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createFbox,
  createMaster,
  createSubAccount,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';
import { AlertRepository } from './alert.repository.js';

const ACK = '/index/fbox.warnning/ack';

describeDb('acknowledging an alert', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let box: CreatedFbox;
  let alertId: number;

  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app, { username: 'ack_master' });
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    box = await createFbox(t.app, areaId, { name: 'Box A' });
    const rule = (await t.app.alertRules.list(areaId)).find((r) => r.metric === 'fbox_temp_high')!;
    alertId = (await new AlertRepository(t.app.db).open(
      { ruleId: rule.id, kind: 'fbox', deviceId: box.id, areaId, fboxId: box.id },
      {
        area_id: areaId,
        rule_id: rule.id,
        metric: 'fbox_temp_high',
        level: 2,
        device_kind: 'fbox',
        device_id: box.id,
        fbox_id: box.id,
        device_name: 'Box A',
        value: 51,
        peak_value: 51,
        detail: '',
        started_at: t.clock.ms,
      },
    ))!;
  });
  afterEach(() => t.close());

  const ack = (body: Record<string, unknown>, as = token) =>
    post(t.app, ACK, { area_id: areaId, id: alertId, ...body }, { token: as }).then((r) => r.json());
  const stored = () =>
    t.app.db.selectFrom('alerts').selectAll().where('id', '=', alertId).executeTakeFirstOrThrow();

  it('records who acknowledged it, when, and the note; the first acknowledgement stands', async () => {
    t.clock.advance(5000);
    const res = await ack({ note: '  Door open, closing it  ' });
    expect(res).toMatchObject({
      code: 1,
      data: { id: alertId, acked_by: 'ack_master', acked_at: t.clock.ms, ack_note: 'Door open, closing it' },
    });
    t.clock.advance(5000);
    expect((await ack({ note: 'again' })).data).toMatchObject({ ack_note: 'Door open, closing it' });
    expect(await stored()).toMatchObject({ acked_by: master.id, ack_note: 'Door open, closing it' });
    const [logged] = await t.app.db
      .selectFrom('operation_log')
      .selectAll()
      .where('action', '=', 'alarmAck')
      .execute();
    expect(logged).toMatchObject({ user_id: master.id, area_id: areaId, code: 1 });
  });

  it('refuses a note that is too long on its field, and changes nothing', async () => {
    expect(await ack({ note: 'x'.repeat(201) })).toMatchObject({
      code: Code.VALIDATION,
      data: { errors: [{ field: 'note' }] },
    });
    expect((await stored()).acked_at).toBeNull();
  });

  it("answers not found for another master's alert or a sub-account outside the mine, changing nothing", async () => {
    const intruder = await login(t.app, await createMaster(t.app));
    expect((await ack({}, intruder)).code).toBe(Code.NOT_FOUND);
    const otherMine = (await createArea(t.app, master.id)).id;
    const operator = await createSubAccount(t.app, master, [otherMine]);
    expect((await ack({}, await login(t.app, operator))).code).toBe(Code.NOT_FOUND);
    expect((await ack({ area_id: otherMine })).code).toBe(Code.NOT_FOUND);
    expect((await stored()).acked_at).toBeNull();
    // An operator of the mine may acknowledge.
    const own = await createSubAccount(t.app, master, [areaId]);
    expect((await ack({}, await login(t.app, own))).code).toBe(1);
  });
});
