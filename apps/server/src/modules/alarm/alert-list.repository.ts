import type { AlertHistoryQuery, AlertListQuery } from '@fbox/contracts';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import { containsText, parseSort } from '../../db/text-match.js';

/** What each sort field of the alert lists orders by. */
const sortColumns = {
  started_at: 'alerts.started_at',
  ended_at: 'alerts.ended_at',
  level: 'alerts.level',
  metric: 'alerts.metric',
  device_name: 'alerts.device_name',
  fbox_name: 'fboxes.name',
  value: 'alerts.value',
  peak_value: 'alerts.peak_value',
} as const;

/** Columns that may be null: an open alert's end, a state metric's readings, a deleted FBOX's name. */
const nullable = new Set<string>([
  sortColumns.ended_at,
  sortColumns.value,
  sortColumns.peak_value,
  sortColumns.fbox_name,
]);

/** Which alerts a list shows: the open ones, or the closed ones started within `from`–`to`. */
export type AlertListFilter = ({ open: true } & AlertListQuery) | ({ open: false } & AlertHistoryQuery);

/** Kysely queries of the alert lists (realtime and history) of one mine. */
export class AlertListRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The alerts of the filter's mine that match it, one page in its order, and how many match. */
  async list(f: AlertListFilter) {
    const started = f.open ? {} : { from: f.from, to: f.to };
    const filtered = this.db
      .selectFrom('alerts')
      .where('alerts.area_id', '=', f.area_id)
      .where('alerts.ended_at', f.open ? 'is' : 'is not', null)
      .$if(f.level !== undefined, (qb) => qb.where('alerts.level', '=', f.level!))
      .$if(f.target !== undefined, (qb) => qb.where('alerts.device_kind', '=', f.target!))
      .$if(f.metric !== undefined, (qb) => qb.where('alerts.metric', '=', f.metric!))
      .$if(f.fbox_id !== undefined, (qb) => qb.where('alerts.fbox_id', '=', f.fbox_id!))
      .$if(Boolean(f.keyword), (qb) => qb.where(containsText('alerts.device_name', f.keyword!)))
      .$if(started.from !== undefined, (qb) => qb.where('alerts.started_at', '>=', started.from!))
      .$if(started.to !== undefined, (qb) => qb.where('alerts.started_at', '<', started.to!));

    // Newest first by default: started for the realtime list, ended for history.
    const { column, direction } = f.sort
      ? parseSort(f.sort, sortColumns, 'started_at')
      : { column: f.open ? sortColumns.started_at : sortColumns.ended_at, direction: 'desc' as const };
    // Missing values sort as the largest on both dialects (PostgreSQL's default; SQLite would put
    // them first); ties break on the id in the same direction, so pages neither skip nor repeat.
    const nulls = nullable.has(column) ? (direction === 'asc' ? ' nulls last' : ' nulls first') : '';
    const byColumn = sql`${sql.ref(column)} ${sql.raw(direction + nulls)}`;
    const byId = sql`${sql.ref('alerts.id')} ${sql.raw(direction)}`;

    const [items, count] = await Promise.all([
      this.withNames(filtered)
        .orderBy(byColumn)
        .orderBy(byId)
        .limit(f.limit)
        .offset((f.page - 1) * f.limit)
        .execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.total) };
  }

  /** One alert of a mine as the lists show it. */
  get(areaId: number, id: number) {
    return this.withNames(
      this.db.selectFrom('alerts').where('alerts.area_id', '=', areaId).where('alerts.id', '=', id),
    ).executeTakeFirst();
  }

  /** Records who acknowledged an alert of a mine, once; false when it was acknowledged already. */
  async ack(areaId: number, id: number, userId: number, note: string | null, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('alerts')
      .set({ acked_by: userId, acked_at: now, ack_note: note })
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .where('acked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Silences the rule of an alert on its device until `until` (replacing a silence there was), or
   * lifts it (`until` null); false when the mine has no such alert.
   */
  async silence(
    areaId: number,
    alertId: number,
    silence: { until: number; by: number; note: string | null; now: number } | null,
  ): Promise<boolean> {
    const alert = await this.db
      .selectFrom('alerts')
      .select(['rule_id', 'device_kind', 'device_id'])
      .where('area_id', '=', areaId)
      .where('id', '=', alertId)
      .executeTakeFirst();
    if (!alert) return false;
    if (!silence) {
      await this.db
        .deleteFrom('alert_silences')
        .where('rule_id', '=', alert.rule_id)
        .where('device_kind', '=', alert.device_kind)
        .where('device_id', '=', alert.device_id)
        .execute();
      return true;
    }
    // A rule deleted since the alert closed has nothing left to silence.
    const rule = await this.db
      .selectFrom('alert_rules')
      .select('id')
      .where('id', '=', alert.rule_id)
      .executeTakeFirst();
    if (!rule) return false;
    const values = {
      until: silence.until,
      created_by: silence.by,
      note: silence.note,
      created_at: silence.now,
    };
    await this.db
      .insertInto('alert_silences')
      .values({ ...alert, area_id: areaId, ...values })
      .onConflict((oc) => oc.columns(['rule_id', 'device_kind', 'device_id']).doUpdateSet(values))
      .execute();
    return true;
  }

  /** The list columns of alerts, with the FBOX's name, the acknowledging user's, and the silence. */
  private withNames<O>(query: SelectQueryBuilder<DB, 'alerts', O>) {
    return query
      .leftJoin('fboxes', 'fboxes.id', 'alerts.fbox_id')
      .leftJoin('users', 'users.id', 'alerts.acked_by')
      .leftJoin('alert_silences', (join) =>
        join
          .onRef('alert_silences.rule_id', '=', 'alerts.rule_id')
          .onRef('alert_silences.device_kind', '=', 'alerts.device_kind')
          .onRef('alert_silences.device_id', '=', 'alerts.device_id'),
      )
      .select([
        'alerts.id',
        'alerts.rule_id',
        'alerts.metric',
        'alerts.level',
        'alerts.device_kind',
        'alerts.device_id',
        'alerts.device_name',
        'alerts.fbox_id',
        'fboxes.name as fbox_name',
        'alerts.value',
        'alerts.peak_value',
        'alerts.detail',
        'alerts.started_at',
        'alerts.ended_at',
        'alerts.end_reason',
        'alerts.acked_at',
        'users.username as acked_by',
        'alerts.ack_note',
        'alert_silences.until as silenced_until',
      ]);
  }
}
