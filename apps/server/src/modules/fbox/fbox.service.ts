import {
  type AgentRegister,
  Code,
  type FboxCreateBody,
  type FboxDetail,
  type FboxEditBody,
  type FboxHistory,
  type FboxListItem,
  type FboxListQuery,
  type HistoryQuery,
  type Language,
  limits,
  type Meter,
  percentLoad,
  translate,
} from '@fbox/contracts';
import type { CreatedFbox } from '../../devices/device.service.js';
import { parseJson, readingOf, statusOf, todayEnergy } from '../../devices/device-values.js';
import { deviceHistory, retentionOf, round } from '../../devices/history.js';
import { ApiError } from '../../lib/api-error.js';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { type DeviceDeps, notFound, requireManage } from '../device-access.js';
import { ClientRecordRepository } from '../mine/client-record.repository.js';
import { FboxRepository } from './fbox.repository.js';

type Caller = AreaCaller;

const fboxSeries = {
  raw: 'fbox_samples',
  m1: 'fbox_samples_1m',
  h1: 'fbox_samples_1h',
  idColumn: 'fbox_id',
  metrics: {
    power_kw: 'power_kw',
    temperature: 'temperature',
    humidity: 'humidity',
    hashrate: 'hashrate_total',
  },
} as const;

interface MeterRow {
  no: number;
  meter_number: string;
  sensor_ratio: number;
  energy_offset_kwh: number;
  reset_at: number | null;
}

/** A meter as shown: accumulated energy since its last reset (reported − offset). */
export const meterOf = (
  row: MeterRow,
  state: {
    meter1_energy_kwh: number | null;
    meter1_power_kw: number | null;
    meter2_energy_kwh: number | null;
    meter2_power_kw: number | null;
  },
): Meter => {
  const energy = readingOf(row.no === 1 ? state.meter1_energy_kwh : state.meter2_energy_kwh);
  const power = readingOf(row.no === 1 ? state.meter1_power_kw : state.meter2_power_kw);
  return {
    no: row.no,
    meter_number: row.meter_number,
    sensor_ratio: row.sensor_ratio,
    energy_kwh: energy === limits.noData ? energy : round(Math.max(0, energy - row.energy_offset_kwh)),
    power_kw: power,
    reset_at: row.reset_at,
  };
};

/**
 * FBOXes of a mine (`fbox.boxlist`): list, detail with the compatibility fields of DESIGN §5,
 * changes (masters only) and history series. Box settings live in modules/fbox-config.
 */
export class FboxService {
  constructor(private readonly deps: DeviceDeps) {}

  private repo() {
    return new FboxRepository(this.deps.db);
  }

  async list(
    user: Caller,
    q: FboxListQuery,
  ): Promise<{ items: FboxListItem[]; total: number; page: number; limit: number }> {
    await this.deps.areas.requireAccess(user, q.area_id);
    const now = this.deps.clock();
    const { items, total } = await this.repo().list(q);
    return {
      items: items.map((r) => ({
        id: r.id,
        name: r.name,
        number: r.number,
        kind: r.kind,
        device_id: r.device_id,
        status: statusOf(r.online),
        last_seen_at: r.last_seen_at,
        temperature: readingOf(r.temperature),
        humidity: readingOf(r.humidity),
        power_kw: readingOf(r.power_kw),
        hashrate: readingOf(r.hashrate_total),
        today_energy_kwh: todayEnergy(r, now),
        miner_online: r.miner_online ?? 0,
        miner_offline: r.miner_offline ?? 0,
        tank_count: Number(r.tank_count ?? 0),
      })),
      total,
      page: q.page,
      limit: q.limit,
    };
  }

  async options(user: Caller, areaId: number) {
    await this.deps.areas.requireAccess(user, areaId);
    return this.repo().options(areaId);
  }

  async detail(user: Caller, areaId: number, id: number, lang: Language): Promise<FboxDetail> {
    const access = await this.deps.areas.requireAccess(user, areaId);
    const repo = this.repo();
    const box = (await repo.find(areaId, id)) ?? notFound();
    const [collectors, meters, tanks] = await Promise.all([
      repo.collectors(id),
      repo.meters([id]),
      repo.tanks(id),
    ]);
    const online = box.online === 1;
    const immersion = box.immersion_status === 'on' ? 'On' : 'Off';
    const pumps = parseJson<{ no: number; status: string; speed: number }[]>(box.pumps, []);
    const thresholds = parseJson<{ temperature_max?: number; humidity_max?: number }>(box.settings, {});
    return {
      id: box.id,
      area_id: box.area_id,
      name: box.name,
      number: box.number,
      kind: box.kind,
      ip_range: box.ip_range,
      voltage_min: box.voltage_min,
      voltage_max: box.voltage_max,
      voltage_a: readingOf(box.voltage_a),
      voltage_b: readingOf(box.voltage_b),
      voltage_c: readingOf(box.voltage_c),
      temperature: readingOf(box.temperature),
      humidity: readingOf(box.humidity),
      collectors: collectors.map((c) => ({
        no: c.no,
        mac: c.mac,
        account: c.account,
        password_set: c.password !== '',
      })),
      meters: meters.map((m) => meterOf(m, box)),
      public_ip: box.public_ip ?? '',
      device_id: box.device_id,
      ...(access.canManage && {
        mqtt_username: box.mqtt_username,
        mqtt_password: this.deps.secrets.open(box.mqtt_password),
      }),
      flow_rate: readingOf(box.flow_rate),
      valve_opening: readingOf(box.valve_opening),
      water_in_temp: readingOf(box.water_in_temp),
      water_out_temp: readingOf(box.water_out_temp),
      pumps: pumps.map((p) => ({ ...p, percent: percentLoad(p.speed, access.electricity_hz) })),
      status: statusOf(box.online),
      last_seen_at: box.last_seen_at,
      reporting_interval_s: box.reporting_interval_s,
      thresholds: {
        temperature_max: thresholds.temperature_max ?? limits.noData,
        humidity_max: thresholds.humidity_max ?? limits.noData,
      },
      tank_count: tanks.length,
      created_at: box.created_at,
      miner_online: Math.trunc(box.miner_online ?? 0),
      miner_offline: Math.trunc(box.miner_offline ?? 0),
      fbox_type_name: translate(lang, `kind.${box.kind}`),
      immersion_status: online ? immersion : 'Offline',
      immersion_percent: readingOf(box.immersion_percent),
      fbox_temp: readingOf(box.temperature),
      realtime_power: readingOf(box.hashrate_total),
      total_realtime_power: readingOf(box.power_kw),
      today_use_power: todayEnergy(box, this.deps.clock()),
      sub_box_list: tanks.map((t) => ({
        id: t.id,
        name: t.name,
        no: t.no,
        work_number: t.work_number,
        status: statusOf(t.online),
        oil_in_temp: readingOf(t.oil_in_temp),
        oil_out_temp: readingOf(t.oil_out_temp),
        liquid_level: readingOf(t.liquid_level),
        main_temperatures: parseJson<number[]>(t.main_temperatures, []).map((num) => ({ num })),
      })),
    };
  }

  async create(user: SessionUser, body: FboxCreateBody, lang: Language): Promise<FboxDetail> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const created = await this.createIn(body.area_id, body);
    return this.detail(user, body.area_id, created.id, lang);
  }

  /**
   * Creates a box for a site agent that registered with its mine's Agent Key (the MQTT layer checked
   * the key): the same defaults and validation as the FBOX form. Returns its MQTT account.
   */
  createForAgent(areaId: number, body: AgentRegister): Promise<CreatedFbox> {
    return this.createIn(areaId, body);
  }

  /** A new box takes its mine's FBOX defaults; voltages given in the form are its own values. */
  private async createIn(areaId: number, body: Omit<FboxCreateBody, 'area_id'>): Promise<CreatedFbox> {
    const initial = await this.deps.fboxConfig.initialFor(areaId, body);
    const created = await this.deps.devices.createFbox(areaId, {
      name: body.name,
      kind: body.kind,
      ...(body.number !== undefined && { number: body.number }),
      ...(body.ip_range !== undefined && { ip_range: body.ip_range }),
      voltage_min: initial.values.voltage_min,
      voltage_max: initial.values.voltage_max,
      reporting_interval_s: initial.values.reporting_interval,
      settings: initial.settings,
      collectors: ([1, 2] as const).map((no) => ({
        no,
        mac: body[`collector${no}_mac`] ?? '',
        account: body[`collector${no}_account`] ?? '',
        password: body[`collector${no}_password`] ?? '',
      })),
      meters: ([1, 2] as const).map((no) => ({
        no,
        meter_number: body[`meter${no}_number`] ?? '',
        sensor_ratio: body[`meter${no}_ratio`] ?? 1,
      })),
    });
    await this.deps.fboxConfig.recordOwn(created.id, initial.own);
    return created;
  }

  async edit(user: SessionUser, body: FboxEditBody, lang: Language): Promise<FboxDetail> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const repo = this.repo();
    const box = (await repo.find(body.area_id, body.id)) ?? notFound();
    const voltageMin = body.voltage_min ?? box.voltage_min;
    const voltageMax = body.voltage_max ?? box.voltage_max;
    if (voltageMin > voltageMax) {
      throw new ApiError(Code.VALIDATION, 'api.validation', undefined, {
        errors: [
          {
            field: body.voltage_min !== undefined ? 'voltage_min' : 'voltage_max',
            rule: 'rule.minNotAboveMax',
          },
        ],
      });
    }
    const now = this.deps.clock();
    await this.deps.db.transaction().execute(async (trx) => {
      const tx = new FboxRepository(trx);
      await tx.update(
        body.id,
        {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.kind !== undefined && { kind: body.kind }),
          ...(body.number !== undefined && { number: body.number }),
          ...(body.ip_range !== undefined && { ip_range: body.ip_range }),
          voltage_min: voltageMin,
          voltage_max: voltageMax,
        },
        now,
      );
      for (const no of [1, 2] as const) {
        const password = body[`collector${no}_password`];
        await tx.upsertCollector(body.id, no, {
          ...(body[`collector${no}_mac`] !== undefined && { mac: body[`collector${no}_mac`] }),
          ...(body[`collector${no}_account`] !== undefined && { account: body[`collector${no}_account`] }),
          // Write-only: an empty field keeps the stored password.
          ...(password && { password: this.deps.secrets.seal(password) }),
        });
        await tx.upsertMeter(body.id, no, {
          ...(body[`meter${no}_number`] !== undefined && { meter_number: body[`meter${no}_number`] }),
          ...(body[`meter${no}_ratio`] !== undefined && { sensor_ratio: body[`meter${no}_ratio`] }),
        });
      }
    });
    await this.deps.fboxConfig.recordEditedVoltages(body.id, body);
    return this.detail(user, body.area_id, body.id, lang);
  }

  async delete(user: SessionUser, areaId: number, id: number): Promise<void> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    const repo = this.repo();
    const box = (await repo.findIdentity(areaId, id)) ?? notFound();
    if (!(await repo.delete(areaId, id))) notFound();
    this.deps.miners.invalidate(areaId);
    // Its telemetry is refused from now on, and its gateway (whose account is gone) is cut off.
    this.deps.devices.revoke(box.device_id);
    await this.deps.devices.removed({ fboxId: id });
  }

  /** Moves a box (with its tanks and miners) to another mine of the same caller. */
  async transfer(user: SessionUser, areaId: number, id: number, toAreaId: number): Promise<void> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    const box = (await this.repo().findIdentity(areaId, id)) ?? notFound();
    if (toAreaId === areaId) {
      throw new ApiError(Code.VALIDATION, 'api.transferSameArea', undefined, {
        errors: [{ field: 'to_area_id', rule: 'api.transferSameArea' }],
      });
    }
    const target = await this.deps.areas.requireAccess(user, toAreaId).catch((error: unknown) => {
      if (error instanceof ApiError) return null;
      throw error;
    });
    if (!target) {
      throw new ApiError(Code.NOT_FOUND, 'api.notFound', undefined, {
        errors: [{ field: 'to_area_id', rule: 'api.notFound' }],
      });
    }
    requireManage(target);
    const now = this.deps.clock();
    await this.deps.db.transaction().execute(async (trx) => {
      await new FboxRepository(trx).moveToArea(id, toAreaId, now);
      await new ClientRecordRepository(trx).moveGateway(id, toAreaId);
    });
    // Ingest resolves the box afresh, so its next telemetry lands in the new area; its live MQTT
    // sessions, opened as the old mine's, are closed so the gateway comes back as the new mine's
    // (else its hello and disconnect would still be recorded under the old mine).
    this.deps.devices.revoke(box.device_id);
    this.deps.miners.invalidate(areaId);
    this.deps.miners.invalidate(toAreaId);
    // Its alerts were the old mine's: they close there; the new mine's rules judge it from now on.
    await this.deps.devices.removed({ fboxId: id });
  }

  async regenerateMqtt(user: SessionUser, areaId: number, id: number) {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    (await this.repo().findIdentity(areaId, id)) ?? notFound();
    return this.deps.devices.regenerateMqttPassword(id);
  }

  /** Power, temperature, humidity, hashrate and energy (avg power × bucket length) per bucket. */
  async history(user: Caller, q: HistoryQuery): Promise<FboxHistory> {
    await this.deps.areas.requireAccess(user, q.area_id);
    (await this.repo().findIdentity(q.area_id, q.id)) ?? notFound();
    const metrics = ['power_kw', 'temperature', 'humidity', 'hashrate'] as const;
    const history = await deviceHistory(this.deps.db, fboxSeries, q.id, metrics, q, retentionOf(this.deps));
    // Energy of a bucket: its mean power over the bucket's length.
    const points = history.points.map((p) => ({
      ...p,
      energy_kwh: p.power_kw === null ? null : round((p.power_kw * q.interval) / 3600),
    }));
    return { ...history, points };
  }
}
