import { type Board, percentLoad, type TankBoard } from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { parseJson, readingOf } from '../../devices/device-values.js';
import { BoardTankRepository } from './board-tank.repository.js';

type Limits = TankBoard['limits'];

/** The readings a threshold rule watches, by the rule's metric. */
const readingOfMetric: Record<string, keyof Limits> = {
  oil_in_temp_high: 'oil_in_temp',
  oil_out_temp_high: 'oil_out_temp',
  liquid_level_low: 'liquid_level',
};

interface CoveredBox {
  id: number;
  name: string;
  online: number | null;
}

/**
 * A tank board's figures (`TankBoardSchema`): the covered FBOXes' tanks with their last readings,
 * the enabled tank rules' thresholds and the tanks' open alerts. A tank that never reported, or
 * whose FBOX is offline, is offline; its readings are -999 where it has none.
 */
export const tankBoardOf = async (
  db: Kysely<DB>,
  areaId: number,
  board: Board,
  boxes: readonly CoveredBox[],
  now: number,
): Promise<TankBoard> => {
  const repo = new BoardTankRepository(db);
  const ids = boxes.map((b) => b.id);
  const [tanks, rules, alerts, hz] = await Promise.all([
    ids.length > 0 ? repo.tanksWithState(areaId, ids) : [],
    repo.enabledTankRules(areaId),
    ids.length > 0 ? repo.openTankAlerts(areaId, ids) : [],
    repo.electricityHz(areaId),
  ]);
  const limits: Limits = { oil_in_temp: [], oil_out_temp: [], liquid_level: [] };
  for (const r of rules) {
    const reading = readingOfMetric[r.metric];
    if (reading && r.threshold !== null)
      limits[reading].push({ level: Number(r.level), threshold: Number(r.threshold) });
  }
  const drive = (value: number | null | undefined) => {
    const v = readingOf(value);
    return { value: v, percent: percentLoad(v, hz) };
  };
  const boxOnline = new Map(boxes.map((b) => [b.id, b.online === 1]));
  const tankOf = (t: (typeof tanks)[number]) => ({
    id: t.id,
    no: t.no,
    name: t.name,
    online: Number(t.online) === 1 && boxOnline.get(t.fbox_id) === true,
    oil_in_temp: readingOf(t.oil_in_temp),
    oil_out_temp: readingOf(t.oil_out_temp),
    liquid_level: readingOf(t.liquid_level),
    oil_pump: drive(t.oil_pump_efficiency),
    fans: parseJson<number[]>(t.fans, []).map(drive),
    control_mode: t.control_mode === 'manual' ? ('manual' as const) : ('auto' as const),
    short_circuit: Number(t.short_circuit) === 1,
    alerts: alerts
      .filter((a) => a.device_id === t.id)
      .map((a) => ({ metric: a.metric, level: Number(a.level) })),
  });
  return {
    board,
    limits,
    watched: {
      pump: rules.some((r) => r.metric === 'tank_pump_fault'),
      fans: rules.some((r) => r.metric === 'fan_fault'),
    },
    fboxes: boxes.map((b) => ({
      id: b.id,
      name: b.name,
      online: b.online === 1,
      tanks: tanks.filter((t) => t.fbox_id === b.id).map(tankOf),
    })),
    at: now,
  };
};
