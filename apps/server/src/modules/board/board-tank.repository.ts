import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The alert rule metrics a tank board sets its readings against. */
export const tankBoardMetrics = [
  'oil_in_temp_high',
  'oil_out_temp_high',
  'liquid_level_low',
  'tank_pump_fault',
  'fan_fault',
] as const;

/** Kysely queries for a tank board: the covered tanks' last state, the tank rules and open tank alerts. */
export class BoardTankRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The tanks of the boxes with their last state (null columns: never reported), by box and position. */
  tanksWithState(areaId: number, fboxIds: readonly number[]) {
    return this.db
      .selectFrom('tanks as t')
      .leftJoin('tank_state as s', 's.tank_id', 't.id')
      .select([
        't.id',
        't.fbox_id',
        't.no',
        't.name',
        's.online',
        's.oil_in_temp',
        's.oil_out_temp',
        's.liquid_level',
        's.fans',
        's.oil_pump_efficiency',
        's.control_mode',
        's.short_circuit',
      ])
      .where('t.area_id', '=', areaId)
      .where('t.fbox_id', 'in', fboxIds)
      .orderBy('t.fbox_id')
      .orderBy('t.no')
      .orderBy('t.id')
      .execute();
  }

  /** The mine's enabled rules on tank readings and drives, most severe level first. */
  enabledTankRules(areaId: number) {
    return this.db
      .selectFrom('alert_rules')
      .select(['metric', 'level', 'threshold'])
      .where('area_id', '=', areaId)
      .where('enabled', '=', 1)
      .where('metric', 'in', tankBoardMetrics)
      .orderBy('level')
      .orderBy('threshold')
      .execute();
  }

  /** Open alerts of the boxes' tanks, most severe first. */
  openTankAlerts(areaId: number, fboxIds: readonly number[]) {
    return this.db
      .selectFrom('alerts')
      .select(['device_id', 'metric', 'level'])
      .where('area_id', '=', areaId)
      .where('fbox_id', 'in', fboxIds)
      .where('device_kind', '=', 'tank')
      .where('ended_at', 'is', null)
      .orderBy('level')
      .orderBy('id')
      .execute();
  }

  /** The mine's mains frequency (drive loads are percent of 5000 at 50 Hz, 6000 at 60 Hz). */
  async electricityHz(areaId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('areas')
      .select('electricity_hz')
      .where('id', '=', areaId)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.electricity_hz);
  }
}
