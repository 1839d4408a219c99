import type { MeterCorrection } from '@fbox/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { MeterCorrectionsTable, MeterHour } from './meter-energy.schema.js';
import { PowerDayRepository } from './power-days.repository.js';

type Hour = MeterHour;

/** PostgreSQL answers bigint columns as text: the hour's numbers as numbers. */
const hourRow = (row: Hour | undefined): Hour | undefined =>
  row && {
    ...row,
    hour_ts: Number(row.hour_ts),
    first_ts: Number(row.first_ts),
    last_ts: Number(row.last_ts),
    energy_kwh: Number(row.energy_kwh),
    first_reading: Number(row.first_reading),
    last_reading: Number(row.last_reading),
    sensor_ratio: Number(row.sensor_ratio),
    resets: Number(row.resets),
    readings: Number(row.readings),
    cum_energy_kwh: Number(row.cum_energy_kwh),
    cum_resets: Number(row.cum_resets),
    cum_readings: Number(row.cum_readings),
  };

/** A meter's running totals (migration 0026). */
export type Totals = Pick<Hour, 'cum_energy_kwh' | 'cum_resets' | 'cum_readings'>;

/** Meter readings entered by hand (migration 0025) and the meter hours they change. Kysely only. */
export class MeterCorrectionRepository {
  constructor(
    private readonly db: Kysely<DB> | Transaction<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** On PostgreSQL, the box locked to the end of the transaction: ingest's meter counting waits. */
  async lockBox(fboxId: number): Promise<void> {
    if (this.dialect === 'postgres')
      await this.db.selectFrom('fboxes').select('id').where('id', '=', fboxId).forNoKeyUpdate().execute();
  }

  private hours(fboxId: number, no: number) {
    return this.db
      .selectFrom('meter_energy_hourly')
      .selectAll()
      .where('fbox_id', '=', fboxId)
      .where('no', '=', no);
  }

  /** The meter's row of the hour starting at `hourTs`. */
  async hour(fboxId: number, no: number, hourTs: number): Promise<Hour | undefined> {
    return hourRow(await this.hours(fboxId, no).where('hour_ts', '=', hourTs).executeTakeFirst());
  }

  /** The latest hour whose last reading came before `at` (up to the hour of `at`). */
  async hourBefore(fboxId: number, no: number, at: number, hourTs: number): Promise<Hour | undefined> {
    return hourRow(
      await this.hours(fboxId, no)
        .where('hour_ts', '<=', hourTs)
        .where('last_ts', '<', at)
        .orderBy('hour_ts', 'desc')
        .limit(1)
        .executeTakeFirst(),
    );
  }

  /** The earliest hour whose first reading came after `at` (from the hour of `at`). */
  async hourAfter(fboxId: number, no: number, at: number, hourTs: number): Promise<Hour | undefined> {
    return hourRow(
      await this.hours(fboxId, no)
        .where('hour_ts', '>=', hourTs)
        .where('first_ts', '>', at)
        .orderBy('hour_ts')
        .limit(1)
        .executeTakeFirst(),
    );
  }

  /** The meter's last counted reading (the base of the next). */
  async lastReading(fboxId: number, no: number): Promise<{ ts: number; energy_kwh: number } | undefined> {
    const row = await this.db
      .selectFrom('meter_reading_state')
      .select(['ts', 'energy_kwh'])
      .where('fbox_id', '=', fboxId)
      .where('no', '=', no)
      .executeTakeFirst();
    return row && { ts: Number(row.ts), energy_kwh: Number(row.energy_kwh) };
  }

  /**
   * The entered reading becomes the meter's last counted one (the base of the gateway's next); a
   * meter without one gets `totals` as its running totals.
   */
  async saveLastReading(
    fboxId: number,
    no: number,
    ts: number,
    energyKwh: number,
    totals: Totals,
  ): Promise<void> {
    await this.db
      .insertInto('meter_reading_state')
      .values({
        fbox_id: fboxId,
        no,
        ts,
        energy_kwh: energyKwh,
        cum_energy_kwh: totals.cum_energy_kwh,
        cum_resets: totals.cum_resets,
        cum_readings: totals.cum_readings,
      })
      .onConflict((oc) => oc.columns(['fbox_id', 'no']).doUpdateSet({ ts, energy_kwh: energyKwh }))
      .execute();
  }

  /** The meter's running totals to the end of its last hour before `hourTs` (zeros when none). */
  async totalsBefore(fboxId: number, no: number, hourTs: number): Promise<Totals> {
    const row = await this.db
      .selectFrom('meter_energy_hourly')
      .select(['cum_energy_kwh', 'cum_resets', 'cum_readings'])
      .where('fbox_id', '=', fboxId)
      .where('no', '=', no)
      .where('hour_ts', '<', hourTs)
      .orderBy('hour_ts', 'desc')
      .limit(1)
      .executeTakeFirst();
    return {
      cum_energy_kwh: Number(row?.cum_energy_kwh ?? 0),
      cum_resets: Number(row?.cum_resets ?? 0),
      cum_readings: Number(row?.cum_readings ?? 0),
    };
  }

  /** Adds to the running totals of the meter's hours from `fromHour` on, and of its last reading. */
  async shiftTotals(
    fboxId: number,
    no: number,
    fromHour: number,
    energy: number,
    resets: number,
    readings: number,
  ) {
    const set = {
      cum_energy_kwh: sql<number>`cum_energy_kwh + ${energy}`,
      cum_resets: sql<number>`cum_resets + ${resets}`,
      cum_readings: sql<number>`cum_readings + ${readings}`,
    };
    await this.db
      .updateTable('meter_energy_hourly')
      .set(set)
      .where('fbox_id', '=', fboxId)
      .where('no', '=', no)
      .where('hour_ts', '>=', fromHour)
      .execute();
    await this.db
      .updateTable('meter_reading_state')
      .set(set)
      .where('fbox_id', '=', fboxId)
      .where('no', '=', no)
      .execute();
  }

  /** Inserts a meter hour, and forgets the settled days holding it. */
  async insertHour(row: Hour): Promise<void> {
    await this.forgetDays(row);
    await this.db.insertInto('meter_energy_hourly').values(row).execute();
  }

  /** Changes a meter hour, and forgets the settled days holding it. */
  async updateHour(row: Hour, set: Partial<Hour>): Promise<void> {
    await this.forgetDays(row);
    await this.db
      .updateTable('meter_energy_hourly')
      .set(set)
      .where('fbox_id', '=', row.fbox_id)
      .where('no', '=', row.no)
      .where('hour_ts', '=', row.hour_ts)
      .execute();
  }

  private forgetDays(row: Hour): Promise<void> {
    return new PowerDayRepository(this.db, this.dialect).forgetHours([
      { fboxId: row.fbox_id, from: row.hour_ts, to: row.hour_ts },
    ]);
  }

  /** The configured sensor ratio of a meter (1 when never set). */
  async configuredRatio(fboxId: number, no: number): Promise<number> {
    const row = await this.db
      .selectFrom('fbox_meters')
      .select('sensor_ratio')
      .where('fbox_id', '=', fboxId)
      .where('no', '=', no)
      .executeTakeFirst();
    return row ? Number(row.sensor_ratio) : 1;
  }

  async insert(row: Omit<MeterCorrectionsTable, 'id'>): Promise<number> {
    const { id } = await this.db
      .insertInto('meter_corrections')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(id);
  }

  /** The readings entered for a box, newest first, with who entered them. */
  async list(fboxId: number): Promise<MeterCorrection[]> {
    const rows = await this.db
      .selectFrom('meter_corrections as c')
      .leftJoin('users as u', 'u.id', 'c.user_id')
      .select([
        'c.id',
        'c.fbox_id',
        'c.no',
        'c.reading_at',
        'c.reading_kwh',
        'c.reason',
        'c.created_at',
        'c.energy_kwh',
        'c.next_hour_ts',
        'c.next_delta_kwh',
        'u.username',
      ])
      .where('c.fbox_id', '=', fboxId)
      .orderBy('c.reading_at', 'desc')
      .orderBy('c.id', 'desc')
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      fbox_id: Number(r.fbox_id),
      no: Number(r.no),
      reading_at: Number(r.reading_at),
      reading_kwh: Number(r.reading_kwh),
      reason: r.reason,
      user_name: r.username ?? '',
      created_at: Number(r.created_at),
      energy_kwh: Number(r.energy_kwh),
      next_hour_ts: r.next_hour_ts == null ? null : Number(r.next_hour_ts),
      next_delta_kwh: Number(r.next_delta_kwh),
    }));
  }
}
