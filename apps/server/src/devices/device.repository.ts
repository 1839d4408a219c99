import type { Kysely, Transaction } from 'kysely';
import type { DB, FboxKind } from '../db/schema.js';

export interface FboxIdentity {
  id: number;
  area_id: number;
  /** The master account that owns the FBOX's mine. */
  owner_id: number;
  device_id: string;
  reporting_interval_s: number;
}

type Db = Kysely<DB> | Transaction<DB>;

/** Kysely queries for FBOXes, their collectors, meters and tanks. */
export class DeviceRepository {
  constructor(private readonly db: Db) {}

  async insertFbox(values: {
    area_id: number;
    name: string;
    number: string;
    kind: FboxKind;
    ip_range: string;
    voltage_min: number;
    voltage_max: number;
    device_id: string;
    mqtt_username: string;
    mqtt_password: string;
    reporting_interval_s: number;
    settings: string;
    now: number;
  }): Promise<number> {
    const { now, ...fbox } = values;
    const row = await this.db
      .insertInto('fboxes')
      .values({ ...fbox, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The state row exists from the start: ingest claims each telemetry seq by updating it.
    await this.db
      .insertInto('fbox_state')
      .values({ fbox_id: row.id, area_id: values.area_id, online: 0, last_seq: -1, updated_at: now })
      .execute();
    return row.id;
  }

  async insertCollectors(
    fboxId: number,
    collectors: { no: number; mac: string; account: string; password: string }[],
  ): Promise<void> {
    if (collectors.length === 0) return;
    await this.db
      .insertInto('fbox_collectors')
      .values(collectors.map((c) => ({ fbox_id: fboxId, ...c })))
      .execute();
  }

  async insertMeters(
    fboxId: number,
    meters: { no: number; meter_number: string; sensor_ratio: number }[],
  ): Promise<void> {
    if (meters.length === 0) return;
    await this.db
      .insertInto('fbox_meters')
      .values(meters.map((m) => ({ fbox_id: fboxId, energy_offset_kwh: 0, reset_at: null, ...m })))
      .execute();
  }

  /** Creates the tank if (fbox, no) is free; returns its id either way. */
  async ensureTank(
    fbox: { id: number; area_id: number },
    no: number,
    name: string,
    now: number,
  ): Promise<number> {
    await this.db
      .insertInto('tanks')
      .values({
        area_id: fbox.area_id,
        fbox_id: fbox.id,
        no,
        name,
        work_number: '',
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['fbox_id', 'no']).doNothing())
      .execute();
    const row = await this.db
      .selectFrom('tanks')
      .select('id')
      .where('fbox_id', '=', fbox.id)
      .where('no', '=', no)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** FBOXes with what ingest and commands need to know of them, their mine's owner included. */
  private identities() {
    return this.db
      .selectFrom('fboxes')
      .innerJoin('areas', 'areas.id', 'fboxes.area_id')
      .select([
        'fboxes.id',
        'fboxes.area_id',
        'areas.owner_id',
        'fboxes.device_id',
        'fboxes.reporting_interval_s',
      ]);
  }

  findFbox(id: number): Promise<FboxIdentity | undefined> {
    return this.identities().where('fboxes.id', '=', id).executeTakeFirst();
  }

  findByDeviceId(deviceId: string): Promise<FboxIdentity | undefined> {
    return this.identities().where('fboxes.device_id', '=', deviceId).executeTakeFirst();
  }

  findCredentials(username: string): Promise<{ device_id: string; mqtt_password: string } | undefined> {
    return this.db
      .selectFrom('fboxes')
      .select(['device_id', 'mqtt_password'])
      .where('mqtt_username', '=', username)
      .executeTakeFirst();
  }

  /** An FBOX's MQTT user name and device id. */
  loginOf(fboxId: number) {
    return this.db
      .selectFrom('fboxes')
      .select(['mqtt_username', 'device_id'])
      .where('id', '=', fboxId)
      .executeTakeFirstOrThrow();
  }

  /** FBOXes of an area with their (sealed) MQTT credentials. */
  listWithCredentials(areaId: number) {
    return this.db
      .selectFrom('fboxes')
      .select([
        'id',
        'area_id',
        'name',
        'kind',
        'device_id',
        'mqtt_username',
        'mqtt_password',
        'reporting_interval_s',
      ])
      .where('area_id', '=', areaId)
      .orderBy('id')
      .execute();
  }

  async setPassword(fboxId: number, password: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('fboxes')
      .set({ mqtt_password: password, updated_at: now })
      .where('id', '=', fboxId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
