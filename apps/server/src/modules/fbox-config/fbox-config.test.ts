import { builtinFboxConfig, Code } from '@fbox/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox } from '../../test/device-factories.js';
import {
  createArea,
  createMaster,
  createSubAccount,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';

const defaults = {
  voltage_min: 360,
  voltage_max: 400,
  temperature_max: 40,
  humidity_max: 70,
  delay_switch_value: 1500,
  reporting_interval: 15,
};

describeDb('FBOX defaults and configuration', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let foreignAreaId: number;
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    foreignAreaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
  });
  afterEach(() => t.close());

  const call = async (path: string, body: Record<string, unknown>, as = token) =>
    (await post(t.app, `/ff-plat-api/api/admin/${path}`, body, { token: as })).json();
  const defaultRows = () => t.app.db.selectFrom('fbox_config_defaults').selectAll().execute();
  const ownRows = () => t.app.db.selectFrom('fbox_configs').selectAll().execute();
  const commandRows = () => t.app.db.selectFrom('commands').selectAll().execute();

  describe('mine defaults (admin/area/config)', () => {
    it('lists built-ins, saves one set per mine, and removes back to built-ins', async () => {
      expect(await call('area/config/list', { area_id: areaId })).toMatchObject({
        code: 1,
        data: { area_id: areaId, custom: false, updated_at: null, ...builtinFboxConfig },
      });
      expect(await call('area/config/save', { area_id: areaId, ...defaults })).toMatchObject({
        code: 1,
        data: { custom: true, ...defaults },
      });
      // Saving again replaces the set (upsert): still one row.
      await call('area/config/save', { area_id: areaId, ...defaults, humidity_max: 60 });
      expect(await defaultRows()).toHaveLength(1);
      expect((await call('area/config/list', { area_id: areaId })).data).toMatchObject({ humidity_max: 60 });
      expect(await call('area/config/remove', { area_id: areaId })).toMatchObject({
        code: 1,
        data: { custom: false, ...builtinFboxConfig },
      });
      expect(await defaultRows()).toHaveLength(0);
    });

    it.each([
      ['voltage_min', { voltage_min: 341 }, 'rule.range'],
      ['voltage_max', { voltage_max: 419 }, 'rule.range'],
      ['voltage_min', { voltage_min: 400, voltage_max: 400 }, 'rule.voltageMinBelowMax'],
      ['temperature_max', { temperature_max: 101 }, 'rule.range'],
      ['temperature_max', { temperature_max: 'hot' }, 'rule.range'],
      ['humidity_max', { humidity_max: -1 }, 'rule.range'],
      ['delay_switch_value', { delay_switch_value: 10_001 }, 'rule.range'],
      ['delay_switch_value', { delay_switch_value: 1.5 }, 'rule.range'],
      ['reporting_interval', { reporting_interval: 4 }, 'rule.range'],
      ['reporting_interval', { reporting_interval: 61 }, 'rule.range'],
    ])('refuses a bad %s (%j) and stores nothing', async (field, bad, rule) => {
      const res = await call('area/config/save', { area_id: areaId, ...defaults, ...bad });
      expect(res.code).toBe(Code.VALIDATION);
      expect(res.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect(JSON.stringify(res.data.errors)).toContain(rule);
      expect(await defaultRows()).toHaveLength(0);
    });

    it('answers not found for a foreign mine and lets operators read only', async () => {
      for (const path of ['area/config/list', 'area/config/save', 'area/config/remove']) {
        expect((await call(path, { area_id: foreignAreaId, ...defaults })).code).toBe(Code.NOT_FOUND);
      }
      expect(await defaultRows()).toHaveLength(0);
      const operator = await createSubAccount(t.app, master, [areaId]);
      const operatorToken = await login(t.app, operator);
      expect((await call('area/config/list', { area_id: areaId }, operatorToken)).code).toBe(1);
      expect((await call('area/config/save', { area_id: areaId, ...defaults }, operatorToken)).code).toBe(
        Code.FORBIDDEN,
      );
      expect(await defaultRows()).toHaveLength(0);
    });

    it('gives a new FBOX the mine defaults, and the form voltages as its own values', async () => {
      await call('area/config/save', { area_id: areaId, ...defaults });
      const created = (
        await post(
          t.app,
          '/index/fbox.boxlist/create',
          { area_id: areaId, name: 'New box', kind: 'air', voltage_max: 410 },
          { token },
        )
      ).json();
      expect(created).toMatchObject({
        code: 1,
        data: {
          voltage_min: 360,
          voltage_max: 410,
          reporting_interval_s: 15,
          thresholds: { temperature_max: 40, humidity_max: 70 },
        },
      });
      const config = await call('fbox/config/detail', { area_id: areaId, id: created.data.id });
      expect(config.data).toMatchObject({
        values: { ...defaults, voltage_max: 410 },
        sources: {
          voltage_min: 'mine',
          voltage_max: 'fbox',
          temperature_max: 'mine',
          humidity_max: 'mine',
          delay_switch_value: 'mine',
          reporting_interval: 'mine',
        },
        own: { voltage_max: 410, voltage_min: null },
      });
      expect(config.data.applied).toEqual(config.data.values);
      // A form voltage that does not fit the inherited other end is refused; no box is created.
      const before = await t.app.db.selectFrom('fboxes').select('id').execute();
      const bad = (
        await post(
          t.app,
          '/index/fbox.boxlist/create',
          { area_id: areaId, name: 'Bad box', kind: 'air', voltage_min: 405 },
          { token },
        )
      ).json();
      expect(bad).toMatchObject({ code: Code.VALIDATION, data: { errors: [{ field: 'voltage_min' }] } });
      expect(await t.app.db.selectFrom('fboxes').select('id').execute()).toHaveLength(before.length);
    });
  });

  describe('one FBOX configuration', () => {
    let boxId: number;
    beforeEach(async () => {
      boxId = (await createFbox(t.app, areaId)).id;
    });

    it('resolves own → mine → account/built-in values, each with its source', async () => {
      await t.app.db
        .updateTable('users')
        .set({ global_config: JSON.stringify({ delay_switch_value: 700 }) })
        .where('id', '=', master.id)
        .execute();
      let res = await call('fbox/config/detail', { area_id: areaId, id: boxId });
      expect(res.data).toMatchObject({
        fbox_id: boxId,
        values: { ...builtinFboxConfig, delay_switch_value: 700 },
        sources: { voltage_min: 'builtin', delay_switch_value: 'account', reporting_interval: 'builtin' },
        last_command: null,
      });
      await call('area/config/save', { area_id: areaId, ...defaults });
      res = await call('fbox/config/detail', { area_id: areaId, id: boxId });
      expect(res.data.values).toEqual(defaults);
      expect(Object.values(res.data.sources)).toEqual(Array(6).fill('mine'));
      expect(await t.app.fboxConfig.delaySwitchMsForFbox(boxId)).toBe(1500);
      expect(await t.app.fboxConfig.delaySwitchMs(master.id)).toBe(700);
    });

    it('saves own values, applies them to the box and sends a fbox.config command', async () => {
      await call('area/config/save', { area_id: areaId, ...defaults });
      const res = await call('fbox/config/save', {
        area_id: areaId,
        id: boxId,
        temperature_max: 50,
        delay_switch_value: 3000,
        reporting_interval: 20,
      });
      expect(res).toMatchObject({
        code: 1,
        data: {
          status: 'pending',
          config: {
            values: { ...defaults, temperature_max: 50, delay_switch_value: 3000, reporting_interval: 20 },
            sources: { temperature_max: 'fbox', voltage_min: 'mine' },
            last_command: { kind: 'fbox.config', status: 'pending' },
          },
        },
      });
      const [command] = await commandRows();
      expect(command).toMatchObject({ id: res.data.command_id, kind: 'fbox.config', fbox_id: boxId });
      expect(JSON.parse(command!.params)).toEqual({
        voltage_min: 360,
        voltage_max: 400,
        temperature_max: 50,
        humidity_max: 70,
        reporting_interval_s: 20,
        delay_switch_ms: 3000,
      });
      const box = await t.app.db
        .selectFrom('fboxes')
        .selectAll()
        .where('id', '=', boxId)
        .executeTakeFirstOrThrow();
      expect(box).toMatchObject({ voltage_min: 360, voltage_max: 400, reporting_interval_s: 20 });
      expect(JSON.parse(box.settings)).toMatchObject({ temperature_max: 50, humidity_max: 70 });
      expect(await t.app.fboxConfig.delaySwitchMsForFbox(boxId)).toBe(3000);

      // null drops an own value: the mine default applies again.
      const reset = await call('fbox/config/save', { area_id: areaId, id: boxId, temperature_max: null });
      expect(reset.data.config).toMatchObject({
        values: { temperature_max: 40, delay_switch_value: 3000 },
        sources: { temperature_max: 'mine', delay_switch_value: 'fbox' },
      });
    });

    it('shows when a changed mine default has not been sent to the box yet', async () => {
      await call('fbox/config/save', { area_id: areaId, id: boxId });
      await call('area/config/save', { area_id: areaId, ...defaults });
      const res = await call('fbox/config/detail', { area_id: areaId, id: boxId });
      expect(res.data.values.reporting_interval).toBe(15);
      expect(res.data.applied.reporting_interval).toBe(builtinFboxConfig.reporting_interval);
    });

    it.each([
      [{ voltage_min: 300 }, 'voltage_min'],
      [{ voltage_max: 500 }, 'voltage_max'],
      [{ voltage_min: 410, voltage_max: 400 }, 'voltage_min'],
      [{ temperature_max: 120 }, 'temperature_max'],
      [{ humidity_max: 'wet' }, 'humidity_max'],
      [{ delay_switch_value: -1 }, 'delay_switch_value'],
      [{ reporting_interval: 3600 }, 'reporting_interval'],
    ])('refuses %j naming %s, storing and sending nothing', async (bad, field) => {
      const res = await call('fbox/config/save', { area_id: areaId, id: boxId, ...bad });
      expect(res.code).toBe(Code.VALIDATION);
      expect(res.data.errors[0].field).toBe(field);
      expect(await ownRows()).toHaveLength(0);
      expect(await commandRows()).toHaveLength(0);
    });

    it('refuses a value that crosses the inherited other end of the voltage band', async () => {
      await call('area/config/save', { area_id: areaId, ...defaults });
      const res = await call('fbox/config/save', { area_id: areaId, id: boxId, voltage_max: 350 });
      expect(res).toMatchObject({ code: Code.VALIDATION, data: { errors: [{ field: 'voltage_max' }] } });
      expect(await ownRows()).toHaveLength(0);
      expect(await commandRows()).toHaveLength(0);
    });

    it('answers not found for a foreign box or mine, and forbids operators to save', async () => {
      const foreignBox = (await createFbox(t.app, foreignAreaId)).id;
      for (const [area, id] of [
        [areaId, foreignBox],
        [foreignAreaId, foreignBox],
        [foreignAreaId, boxId],
      ]) {
        expect((await call('fbox/config/detail', { area_id: area, id })).code).toBe(Code.NOT_FOUND);
        expect((await call('fbox/config/save', { area_id: area, id, humidity_max: 50 })).code).toBe(
          Code.NOT_FOUND,
        );
      }
      const operator = await createSubAccount(t.app, master, [areaId]);
      const operatorToken = await login(t.app, operator);
      expect((await call('fbox/config/detail', { area_id: areaId, id: boxId }, operatorToken)).code).toBe(1);
      expect(
        (await call('fbox/config/save', { area_id: areaId, id: boxId, humidity_max: 50 }, operatorToken))
          .code,
      ).toBe(Code.FORBIDDEN);
      expect(await ownRows()).toHaveLength(0);
      expect(await commandRows()).toHaveLength(0);
    });
  });
});
