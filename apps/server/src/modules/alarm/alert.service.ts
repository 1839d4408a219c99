import type {
  AlertAckBody,
  AlertHistoryExportQuery,
  AlertHistoryQuery,
  AlertItem,
  AlertListQuery,
  AlertSilenceBody,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { notFound } from '../device-access.js';
import { type AlertListFilter, AlertListRepository } from './alert-list.repository.js';

type Row = NonNullable<Awaited<ReturnType<AlertListRepository['get']>>>;

const item = (r: Row, now: number): AlertItem => ({
  id: r.id,
  rule_id: r.rule_id,
  metric: r.metric,
  level: r.level,
  target: r.device_kind,
  device_id: r.device_id,
  device_name: r.device_name,
  fbox_id: r.fbox_id,
  // History outlives its FBOX: a deleted box has no name any more.
  fbox_name: r.fbox_name ?? '',
  value: r.value,
  peak_value: r.peak_value,
  detail: r.detail,
  started_at: r.started_at,
  ended_at: r.ended_at,
  end_reason: r.end_reason,
  acked_at: r.acked_at,
  acked_by: r.acked_by,
  ack_note: r.ack_note,
  // A silence that ran out is kept until replaced; it no longer counts.
  silenced_until: r.silenced_until !== null && r.silenced_until > now ? r.silenced_until : null,
});

/**
 * The alert lists of a mine (spec §7 `fbox.warnning` and `fbox.history`): its open alerts and its
 * closed ones, filtered, sorted and paged. A mine outside the caller's scope answers "not found".
 */
export class AlertService {
  constructor(private readonly deps: Pick<FastifyInstance, 'db' | 'areas' | 'clock' | 'live'>) {}

  /**
   * Acknowledges an alert of the mine, open or closed: who (the caller), when, and a note. The first
   * acknowledgement stands; the lists of every browser on the mine refresh.
   */
  async ack(user: SessionUser, body: AlertAckBody): Promise<AlertItem> {
    await this.deps.areas.requireAccess(user, body.area_id);
    const repo = new AlertListRepository(this.deps.db);
    const note = body.note ? body.note : null;
    const acked = await repo.ack(body.area_id, body.id, user.id, note, this.deps.clock());
    const row = (await repo.get(body.area_id, body.id)) ?? notFound();
    if (acked)
      this.deps.live.publish({
        type: 'alert',
        areaId: body.area_id,
        alertId: row.id,
        ruleId: row.rule_id,
        level: row.level,
        open: row.ended_at === null,
      });
    return item(row, this.deps.clock());
  }

  /**
   * Silences the rule of an alert on its device for `minutes` (0 lifts the silence): the alert
   * stays on the lists, no notification goes out for it until then. Recorded in the operation log
   * like every write.
   */
  async silence(user: SessionUser, body: AlertSilenceBody): Promise<AlertItem> {
    await this.deps.areas.requireAccess(user, body.area_id);
    const repo = new AlertListRepository(this.deps.db);
    const now = this.deps.clock();
    const silence =
      body.minutes === 0
        ? null
        : { until: now + body.minutes * 60_000, by: user.id, note: body.note || null, now };
    if (!(await repo.silence(body.area_id, body.id, silence))) notFound();
    const row = (await repo.get(body.area_id, body.id)) ?? notFound();
    this.deps.live.publish({
      type: 'alert',
      areaId: body.area_id,
      alertId: row.id,
      ruleId: row.rule_id,
      level: row.level,
      open: row.ended_at === null,
    });
    return item(row, now);
  }

  /** Open alerts, newest first unless sorted otherwise. */
  current(user: AreaCaller, q: AlertListQuery) {
    return this.page(user, { ...q, open: true });
  }

  /** Closed alerts started within `from`–`to`, most recently ended first unless sorted otherwise. */
  history(user: AreaCaller, q: AlertHistoryQuery) {
    return this.page(user, { ...q, open: false });
  }

  /**
   * Every closed alert the history's filters match, in its order, page by page (for the export).
   * Scope is checked on the first step, so a foreign mine fails before the first byte.
   */
  async *historyRows(user: AreaCaller, q: AlertHistoryExportQuery): AsyncGenerator<AlertItem[]> {
    await this.deps.areas.requireAccess(user, q.area_id);
    const repo = new AlertListRepository(this.deps.db);
    const limit = 1000;
    for (let page = 1; ; page++) {
      const { items } = await repo.list({ ...q, open: false, page, limit });
      const now = this.deps.clock();
      yield items.map((r) => item(r, now));
      if (items.length < limit) return;
    }
  }

  private async page(user: AreaCaller, f: AlertListFilter) {
    await this.deps.areas.requireAccess(user, f.area_id);
    const { items, total } = await new AlertListRepository(this.deps.db).list(f);
    const now = this.deps.clock();
    return { items: items.map((r) => item(r, now)), total, page: f.page, limit: f.limit };
  }
}
