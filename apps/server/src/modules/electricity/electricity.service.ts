import type { SetMeterBody } from '@fbox/contracts';
import { readingOf, statusOf, todayEnergy } from '../../devices/device-values.js';
import { round } from '../../devices/history.js';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { type DeviceDeps, notFound } from '../device-access.js';
import { FboxRepository } from '../fbox/fbox.repository.js';
import { meterOf } from '../fbox/fbox.service.js';
import type { MeterCorrectionService } from './meter-correction.service.js';

type Caller = AreaCaller;
type BoxState = Awaited<ReturnType<FboxRepository['listWithState']>>[number];
type MeterRow = Awaited<ReturnType<FboxRepository['meters']>>[number];

/**
 * Power meters of a mine (`fbox.electricity`): per-FBOX energy today and its two meters, meter
 * settings, and the meter reading reset (a `meter.reset` command plus the stored reset offset).
 */
export class ElectricityService {
  constructor(
    private readonly deps: DeviceDeps,
    private readonly readings: MeterCorrectionService,
  ) {}

  private entry(box: BoxState, meters: MeterRow[], now: number) {
    return {
      fbox_id: box.id,
      fbox_name: box.name,
      status: statusOf(box.online),
      power_kw: readingOf(box.power_kw),
      today_energy_kwh: todayEnergy(box, now),
      meters: meters.filter((m) => m.fbox_id === box.id).map((m) => meterOf(m, box)),
    };
  }

  async index(user: Caller, areaId: number) {
    await this.deps.areas.requireAccess(user, areaId);
    const repo = new FboxRepository(this.deps.db);
    const boxes = await repo.listWithState(areaId);
    const meters = await repo.meters(boxes.map((b) => b.id));
    const now = this.deps.clock();
    const items = boxes.map((b) => this.entry(b, meters, now));
    return {
      items,
      total_power_kw: round(items.reduce((sum, i) => sum + Math.max(0, i.power_kw), 0)),
      total_today_energy_kwh: round(items.reduce((sum, i) => sum + Math.max(0, i.today_energy_kwh), 0)),
    };
  }

  async get(user: Caller, areaId: number, fboxId: number) {
    await this.deps.areas.requireAccess(user, areaId);
    const repo = new FboxRepository(this.deps.db);
    const box = (await repo.listWithState(areaId)).find((b) => b.id === fboxId) ?? notFound();
    return this.entry(box, await repo.meters([fboxId]), this.deps.clock());
  }

  /**
   * Stores meter number and sensor ratio. A reset stores the current reading as the offset (the
   * shown energy restarts from 0 at once) and asks the gateway to zero the meter.
   */
  async setMeter(user: SessionUser, body: SetMeterBody) {
    await this.deps.areas.requireAccess(user, body.area_id);
    const repo = new FboxRepository(this.deps.db);
    const box = (await repo.listWithState(body.area_id)).find((b) => b.id === body.fbox_id) ?? notFound();
    const now = this.deps.clock();
    // A reading entered by hand first: when the stored readings refute it, nothing else changes.
    const correction =
      body.reading_kwh === undefined
        ? null
        : await this.readings.enter({
            fboxId: body.fbox_id,
            no: body.meter_no,
            at: body.reading_at!,
            reading: body.reading_kwh,
            reason: body.reason!,
            userId: user.id,
            now,
          });
    const reading = body.meter_no === 1 ? box.meter1_energy_kwh : box.meter2_energy_kwh;
    const reset = body.reset === 'on';
    await repo.upsertMeter(body.fbox_id, body.meter_no, {
      ...(body.meter_number !== undefined && { meter_number: body.meter_number }),
      ...(body.sensor_ratio !== undefined && { sensor_ratio: body.sensor_ratio }),
      ...(reset && { reset_at: now, energy_offset_kwh: reading == null || reading === -999 ? 0 : reading }),
    });
    const command = reset
      ? await this.deps.commands.issue({
          areaId: body.area_id,
          fboxId: body.fbox_id,
          kind: 'meter.reset',
          target: { meter_no: body.meter_no as 1 | 2 },
          params: {
            ...(body.meter_number !== undefined && { meter_number: body.meter_number }),
            ...(body.sensor_ratio !== undefined && { sensor_ratio: body.sensor_ratio }),
          },
          userId: user.id,
        })
      : null;
    const meter = (await repo.meters([body.fbox_id])).find((m) => m.no === body.meter_no)!;
    return {
      meter: meterOf(meter, box),
      command: command && { command_id: command.id, status: command.status },
      correction,
    };
  }

  /** The readings entered by hand for a box of a mine the caller sees. */
  async corrections(user: Caller, areaId: number, fboxId: number) {
    await this.deps.areas.requireAccess(user, areaId);
    if (!(await new FboxRepository(this.deps.db).findIdentity(areaId, fboxId))) notFound();
    return this.readings.list(fboxId);
  }
}
