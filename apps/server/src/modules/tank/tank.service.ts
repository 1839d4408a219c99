import { randomBytes } from 'node:crypto';
import {
  Code,
  type CommandRef,
  type HistoryQuery,
  percentLoad,
  type TankAction,
  type TankAddBody,
  type TankControllerSwitchV2Body,
  type TankDetail,
  type TankEditBody,
  type TankListItem,
  type TankListQuery,
} from '@fbox/contracts';
import { issueBatch } from '../../devices/batch.js';
import type { IssueCommand } from '../../devices/command.service.js';
import { parseJson, readingOf, statusOf } from '../../devices/device-values.js';
import { deviceHistory, retentionOf } from '../../devices/history.js';
import { ApiError, fieldConflict } from '../../lib/api-error.js';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { type DeviceDeps, notFound, requireManage } from '../device-access.js';
import { FboxRepository } from '../fbox/fbox.repository.js';
import { TankRepository } from './tank.repository.js';

type Caller = AreaCaller;
type TankRow = NonNullable<Awaited<ReturnType<TankRepository['find']>>>;

const tankSeries = {
  raw: 'tank_samples',
  m1: 'tank_samples_1m',
  h1: 'tank_samples_1h',
  idColumn: 'tank_id',
  metrics: { oil_in_temp: 'oil_in_temp', oil_out_temp: 'oil_out_temp', liquid_level: 'liquid_level' },
} as const;

const actionCommand: Record<TankAction, Pick<IssueCommand, 'kind' | 'params'>> = {
  energy_saving_on: { kind: 'tank.oil_setting', params: { energy_saving: true } },
  energy_saving_off: { kind: 'tank.oil_setting', params: { energy_saving: false } },
  auto: { kind: 'tank.controller_switch', params: { control_mode: 'auto' } },
  manual: { kind: 'tank.controller_switch', params: { control_mode: 'manual' } },
};

const tankNoTaken = () => fieldConflict('no', 'api.tankNoTaken');

const listItem = (r: Omit<TankRow, 'fbox_key' | 'fbox_online'>): TankListItem => ({
  id: r.id,
  name: r.name,
  no: r.no,
  work_number: r.work_number,
  fbox_id: r.fbox_id,
  fbox_name: r.fbox_name,
  status: statusOf(r.online),
  oil_in_temp: readingOf(r.oil_in_temp),
  oil_out_temp: readingOf(r.oil_out_temp),
  liquid_level: readingOf(r.liquid_level),
  energy_saving: r.energy_saving === 1,
  control_mode: r.control_mode === 'manual' ? 'manual' : 'auto',
  short_circuit: r.short_circuit === 1,
  miner_count: Number(r.miner_count ?? 0),
  miner_online: Number(r.miner_online ?? 0),
  hashrate: Math.round(Number(r.hashrate ?? 0) * 1000) / 1000,
});

/**
 * Oil-immersion tanks (`fbox.oillist`): list and detail with fan/pump load in percent of the
 * mine's frequency base, changes (masters), and tank control sent as commands to the FBOX gateway.
 */
export class TankService {
  constructor(private readonly deps: DeviceDeps) {}

  private repo() {
    return new TankRepository(this.deps.db);
  }

  async list(user: Caller, q: TankListQuery) {
    await this.deps.areas.requireAccess(user, q.area_id);
    const { items, total } = await this.repo().list(q);
    return { items: items.map(listItem), total, page: q.page, limit: q.limit };
  }

  async detail(user: Caller, areaId: number, id: number): Promise<TankDetail> {
    const access = await this.deps.areas.requireAccess(user, areaId);
    const r = (await this.repo().find(areaId, id)) ?? notFound();
    const hz = access.electricity_hz;
    const fans = parseJson<number[]>(r.fans, []);
    const item = listItem(r);
    return {
      ...item,
      area_id: r.area_id,
      fbox_status: statusOf(r.fbox_online),
      fans: fans.map((value, i) => ({ no: i + 1, value, percent: percentLoad(value, hz) })),
      oil_pump_efficiency: readingOf(r.oil_pump_efficiency),
      oil_pump_percent: percentLoad(readingOf(r.oil_pump_efficiency), hz),
      water_in_temp: readingOf(r.water_in_temp),
      water_speed: readingOf(r.water_speed),
      main_temperatures: parseJson<number[]>(r.main_temperatures, []),
      miner_offline: item.miner_count - item.miner_online,
      electricity_hz: hz,
      updated_at: r.updated_at ?? null,
    };
  }

  async search(user: Caller, areaId: number, keyword: string) {
    await this.deps.areas.requireAccess(user, areaId);
    return this.repo().search(areaId, keyword);
  }

  async options(user: Caller, areaId: number, fboxId: number) {
    await this.deps.areas.requireAccess(user, areaId);
    return this.repo().options(areaId, fboxId);
  }

  async add(user: SessionUser, body: TankAddBody): Promise<TankDetail> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const box = await new FboxRepository(this.deps.db).findIdentity(body.area_id, body.fbox_id);
    if (!box)
      throw new ApiError(Code.NOT_FOUND, 'api.notFound', undefined, {
        errors: [{ field: 'fbox_id', rule: 'api.notFound' }],
      });
    const repo = this.repo();
    const no = body.no ?? (await repo.nextNo(body.fbox_id));
    if (await repo.noTaken(body.fbox_id, no)) throw tankNoTaken();
    const id = await repo.insert(
      {
        area_id: body.area_id,
        fbox_id: body.fbox_id,
        no,
        name: body.name,
        work_number: body.work_number ?? '',
      },
      this.deps.clock(),
    );
    return this.detail(user, body.area_id, id);
  }

  async edit(user: SessionUser, body: TankEditBody): Promise<TankDetail> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const repo = this.repo();
    const tank = (await repo.find(body.area_id, body.id)) ?? notFound();
    if (body.no !== undefined && (await repo.noTaken(tank.fbox_id, body.no, tank.id))) throw tankNoTaken();
    await repo.update(
      body.id,
      {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.work_number !== undefined && { work_number: body.work_number }),
        ...(body.no !== undefined && { no: body.no }),
      },
      this.deps.clock(),
    );
    return this.detail(user, body.area_id, body.id);
  }

  async delete(user: SessionUser, areaId: number, id: number): Promise<void> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    if (!(await this.repo().delete(areaId, id))) notFound();
    await this.deps.devices.removed({ areaId, kind: 'tank', ids: [id] });
  }

  private async issueOne(
    user: SessionUser,
    areaId: number,
    id: number,
    command: Pick<IssueCommand, 'kind' | 'params'>,
  ) {
    await this.deps.areas.requireAccess(user, areaId);
    const [tank] = await this.repo().findMany(areaId, [id]);
    if (!tank) notFound();
    const record = await this.deps.commands.issue({
      areaId,
      fboxId: tank!.fbox_id,
      tankId: tank!.id,
      target: { tank_no: tank!.no },
      userId: user.id,
      ...command,
    });
    return { command_id: record.id, status: record.status } satisfies CommandRef;
  }

  oilSetting(user: SessionUser, areaId: number, id: number, energySaving: 'on' | 'off') {
    return this.issueOne(user, areaId, id, {
      kind: 'tank.oil_setting',
      params: { energy_saving: energySaving === 'on' },
    });
  }

  controllerSwitch(user: SessionUser, areaId: number, id: number, mode: 'auto' | 'manual') {
    return this.issueOne(user, areaId, id, {
      kind: 'tank.controller_switch',
      params: { control_mode: mode },
    });
  }

  controllerSwitchV2(user: SessionUser, body: TankControllerSwitchV2Body) {
    return this.issueOne(user, body.area_id, body.id, {
      kind: 'tank.controller_switch',
      params: {
        device: body.device,
        no: body.no,
        status: body.status,
        ...(body.speed !== undefined && { speed: body.speed }),
      },
    });
  }

  /** One command per tank with a shared batch id; a foreign id is `not_found` and gets none. */
  async multipleOperate(user: SessionUser, areaId: number, ids: number[], action: TankAction) {
    await this.deps.areas.requireAccess(user, areaId);
    const unique = [...new Set(ids)];
    const tanks = new Map((await this.repo().findMany(areaId, unique)).map((t) => [t.id, t]));
    const batchId = randomBytes(12).toString('hex');
    const inputs = unique
      .filter((id) => tanks.has(id))
      .map((id): IssueCommand => {
        const tank = tanks.get(id)!;
        return {
          areaId,
          fboxId: tank.fbox_id,
          tankId: id,
          target: { tank_no: tank.no },
          userId: user.id,
          batchId,
          ...actionCommand[action],
        };
      });
    return issueBatch(this.deps, batchId, 'tank_id', unique, inputs);
  }

  async history(user: Caller, q: HistoryQuery) {
    await this.deps.areas.requireAccess(user, q.area_id);
    if ((await this.repo().findMany(q.area_id, [q.id])).length === 0) notFound();
    const metrics = ['oil_in_temp', 'oil_out_temp', 'liquid_level'] as const;
    return deviceHistory(this.deps.db, tankSeries, q.id, metrics, q, retentionOf(this.deps));
  }
}
