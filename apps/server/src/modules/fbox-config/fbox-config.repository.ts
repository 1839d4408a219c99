import type { FboxConfigField } from '@fbox/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { FboxConfigDefaultsTable, FboxConfigsTable } from './fbox-config.schema.js';

export type DefaultsRow = Selectable<FboxConfigDefaultsTable>;
export type OwnRow = Selectable<FboxConfigsTable>;
export type ConfigNumbers = Record<FboxConfigField, number>;
export type OwnNumbers = Record<FboxConfigField, number | null>;

/** Kysely queries for mine defaults, FBOX own values and the values last applied to a box. */
export class FboxConfigRepository {
  constructor(private readonly db: Kysely<DB>) {}

  defaults(areaId: number): Promise<DefaultsRow | undefined> {
    return this.db
      .selectFrom('fbox_config_defaults')
      .selectAll()
      .where('area_id', '=', areaId)
      .executeTakeFirst();
  }

  async upsertDefaults(areaId: number, values: ConfigNumbers, userId: number, now: number): Promise<void> {
    const row = { ...values, updated_by: userId, updated_at: now };
    await this.db
      .insertInto('fbox_config_defaults')
      .values({ area_id: areaId, ...row })
      .onConflict((oc) => oc.column('area_id').doUpdateSet(row))
      .execute();
  }

  async removeDefaults(areaId: number): Promise<void> {
    await this.db.deleteFrom('fbox_config_defaults').where('area_id', '=', areaId).execute();
  }

  /** The box of `areaId` with what was last applied to it, or undefined outside the area. */
  box(areaId: number, id: number) {
    return this.db
      .selectFrom('fboxes')
      .leftJoin('fbox_state', 'fbox_state.fbox_id', 'fboxes.id')
      .innerJoin('areas', 'areas.id', 'fboxes.area_id')
      .innerJoin('users', 'users.id', 'areas.owner_id')
      .select([
        'fboxes.id',
        'fboxes.area_id',
        'fboxes.name',
        'fboxes.voltage_min',
        'fboxes.voltage_max',
        'fboxes.reporting_interval_s',
        'fboxes.settings',
        'fbox_state.online',
        'users.global_config as owner_global_config',
      ])
      .where('fboxes.area_id', '=', areaId)
      .where('fboxes.id', '=', id)
      .executeTakeFirst();
  }

  own(fboxId: number): Promise<OwnRow | undefined> {
    return this.db.selectFrom('fbox_configs').selectAll().where('fbox_id', '=', fboxId).executeTakeFirst();
  }

  async upsertOwn(fboxId: number, values: OwnNumbers, now: number): Promise<void> {
    const row = { ...values, updated_at: now };
    await this.db
      .insertInto('fbox_configs')
      .values({ fbox_id: fboxId, ...row })
      .onConflict((oc) => oc.column('fbox_id').doUpdateSet(row))
      .execute();
  }

  /** Stores the effective configuration on the box (what the console and offline detection read). */
  async apply(fboxId: number, values: ConfigNumbers, settings: string, now: number): Promise<void> {
    await this.db
      .updateTable('fboxes')
      .set({
        voltage_min: values.voltage_min,
        voltage_max: values.voltage_max,
        reporting_interval_s: values.reporting_interval,
        settings,
        updated_at: now,
      })
      .where('id', '=', fboxId)
      .execute();
  }

  /** The newest `fbox.config` command of a box. */
  lastConfigCommand(fboxId: number) {
    return this.db
      .selectFrom('commands')
      .selectAll()
      .where('fbox_id', '=', fboxId)
      .where('kind', '=', 'fbox.config')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The account Delay Switch (ms) of a master (`global_config`); 0 when unset or unreadable. */
  async accountDelay(masterId: number): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select('global_config')
      .where('id', '=', masterId)
      .executeTakeFirst();
    return delayOf(row?.global_config);
  }

  /** A box's own delay, its mine's default delay and its master's account delay. */
  delaysOfBox(fboxId: number) {
    return this.db
      .selectFrom('fboxes')
      .innerJoin('areas', 'areas.id', 'fboxes.area_id')
      .innerJoin('users', 'users.id', 'areas.owner_id')
      .leftJoin('fbox_configs', 'fbox_configs.fbox_id', 'fboxes.id')
      .leftJoin('fbox_config_defaults', 'fbox_config_defaults.area_id', 'fboxes.area_id')
      .select([
        'fbox_configs.delay_switch_value as own',
        'fbox_config_defaults.delay_switch_value as mine',
        'users.global_config',
      ])
      .where('fboxes.id', '=', fboxId)
      .executeTakeFirst();
  }
}

/** `delay_switch_value` of a `global_config` JSON text; 0 when missing or broken. */
export const delayOf = (globalConfig: string | null | undefined): number => {
  try {
    const value = Number(
      (JSON.parse(globalConfig ?? '{}') as { delay_switch_value?: unknown }).delay_switch_value,
    );
    return Number.isFinite(value) && value >= 0 ? value : 0;
  } catch {
    return 0;
  }
};
