import { type BoardRevenue, type RevenueDay, timeZoneOffsetMinutes } from '@fbox/contracts';
import type { RevenueService } from '../pool/revenue.service.js';
import type { BoardRepository } from './board.repository.js';

const day = 86_400_000;

/** The local day (`YYYY-MM-DD`) an instant falls in, in a zone `offsetMin` minutes east of UTC. */
const dayOf = (ms: number, offsetMin: number) => new Date(ms + offsetMin * 60_000).toISOString().slice(0, 10);

const summary = (d: RevenueDay | undefined, name: string): BoardRevenue['today'] => ({
  day: name,
  source: d?.source ?? 'none',
  coin: d?.coin ?? null,
  fiat: d?.fiat ?? null,
});

/**
 * The mine's revenue today and yesterday for a data board: the Revenue screen's own computation
 * (pool credits, else the estimate from the miners' hashrate, valued at the coin price), in the
 * mine owner's zone so the console and a kiosk screen agree on "today". Undefined when the mine
 * has no revenue settings and no pool credit on either day: the board then shows no panel.
 */
export const boardRevenue = async (
  revenue: RevenueService,
  repo: BoardRepository,
  areaId: number,
  now: number,
): Promise<BoardRevenue | undefined> => {
  const zone = (await repo.ownerTimeZone(areaId)) ?? 'UTC+0';
  const offset = timeZoneOffsetMinutes(zone);
  const today = dayOf(now, offset);
  const yesterday = dayOf(now - day, offset);
  const answer = await revenue.revenueOf(
    { area_id: areaId, from_day: yesterday, to_day: today },
    zone,
    false,
  );
  const byDay = new Map(answer.days.map((d) => [d.day, d]));
  const figures = {
    today: summary(byDay.get(today), today),
    yesterday: summary(byDay.get(yesterday), yesterday),
  };
  const anything = figures.today.source !== 'none' || figures.yesterday.source !== 'none';
  if (answer.settings.updated_at === null && !anything) return undefined;
  return { coin: answer.settings.coin, fiat: answer.settings.fiat, time_zone: zone, ...figures };
};
