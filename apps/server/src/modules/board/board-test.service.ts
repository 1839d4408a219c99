import type { Board, TestBoard, TestCriterion } from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { BoardRepository } from './board.repository.js';
import { BoardTestRepository, type TestSums } from './board-test.repository.js';

const hour = 3_600_000;

const round = (value: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

type TestMiner = TestBoard['miners'][number];
type Criteria = Pick<Board, 'pass_ratio' | 'max_chip_temp'>;

/**
 * One miner's test over the window: its average hashrate while it reported online (hashrate × time
 * ÷ time reporting), against its theoretical hashrate (averaged over the window, else its current
 * one); its hottest chip; the share of the window, since it was added, it reported online. No
 * report at all: no data. Otherwise it fails on hashrate below `pass_ratio` % of theoretical (or an
 * unknown theoretical), and on a chip above `max_chip_temp`; else it passes.
 */
export const judgeMiner = (
  sums: TestSums | undefined,
  chip: number | undefined,
  currentTheoretical: number,
  criteria: Criteria,
): Pick<
  TestMiner,
  'hashrate' | 'theoretical' | 'ratio' | 'chip_max_temp' | 'reported' | 'verdict' | 'failed'
> => {
  const reach = sums?.reach_s ?? 0;
  const cover = sums?.cover_s ?? 0;
  const hashrate = reach > 0 ? Math.max(0, sums!.hashrate_s / reach) : null;
  const averaged = cover > 0 && sums!.theo_s > 0 ? sums!.theo_s / cover : null;
  const theoretical = averaged ?? (currentTheoretical > 0 ? currentTheoretical : null);
  const ratio = hashrate !== null && theoretical !== null ? (hashrate / theoretical) * 100 : null;
  const chipMax = chip ?? null;
  const shown = {
    hashrate: hashrate === null ? null : round(hashrate, 3),
    theoretical: theoretical === null ? null : round(theoretical, 3),
    ratio: ratio === null ? null : round(ratio, 1),
    chip_max_temp: chipMax === null ? null : round(chipMax, 1),
    reported: cover > 0 ? round(Math.min(1, reach / cover), 4) : 0,
  };
  if (reach <= 0) return { ...shown, verdict: 'no_data', failed: [] };
  const failed: TestCriterion[] = [];
  if (ratio === null || ratio < criteria.pass_ratio) failed.push('hashrate');
  if (chipMax !== null && chipMax > criteria.max_chip_temp) failed.push('temperature');
  return { ...shown, verdict: failed.length > 0 ? 'fail' : 'pass', failed };
};

interface CoveredBox {
  id: number;
  name: string;
  online: number | null;
}

/**
 * A miner commissioning board's figures (`TestBoardSchema`). The window is the board's last
 * `test_hours` clock hours, the current one as far as it has gone: the hashrate rollup holds whole
 * and current hours alike; the hottest chip comes from the 1-hour history rollup and, for the hours
 * it has not closed yet, the 1-minute one.
 */
export const testBoardOf = async (
  db: Kysely<DB>,
  areaId: number,
  board: Board,
  boxes: readonly CoveredBox[],
  now: number,
): Promise<TestBoard> => {
  const repo = new BoardTestRepository(db);
  const ids = boxes.map((b) => b.id);
  const toHour = now - (now % hour);
  const from = toHour - (board.test_hours - 1) * hour;
  const rollupEnd = await repo.hourRollupEnd(from);
  const cut = Math.max(from, Math.min(rollupEnd ?? from, toHour));
  const boards = new BoardRepository(db);
  const [miners, sums, chips, tanks] =
    ids.length === 0
      ? [[], [], [], []]
      : await Promise.all([
          boards.minersOf(areaId, ids),
          repo.hashrateSums(areaId, ids, from, toHour),
          repo.hottestChips(areaId, ids, from, cut, now),
          boards.tanksOf(ids),
        ]);
  const sumsOf = new Map(sums.map((s) => [s.miner_id, s]));
  const chipOf = new Map(chips.map((c) => [c.miner_id, c.chip_max_temp]));
  const tested: TestMiner[] = miners.map((m) => ({
    id: m.id,
    fbox_id: m.fbox_id,
    tank_no: m.tank_no,
    slot: m.slot,
    sn: m.sn,
    worker: m.worker,
    ip: m.ip,
    model: m.model,
    online: Number(m.online) === 1,
    ...judgeMiner(sumsOf.get(m.id), chipOf.get(m.id), Number(m.theoretical ?? 0), board),
  }));
  const count = (pick: (m: TestMiner) => boolean) => tested.filter(pick).length;
  return {
    board,
    window: { from, to: now },
    counts: {
      pass: count((m) => m.verdict === 'pass'),
      fail: count((m) => m.verdict === 'fail'),
      no_data: count((m) => m.verdict === 'no_data'),
      hashrate: count((m) => m.failed.includes('hashrate')),
      temperature: count((m) => m.failed.includes('temperature')),
    },
    fboxes: boxes.map((b) => ({
      id: b.id,
      name: b.name,
      online: b.online === 1,
      tanks: tanks.filter((t) => t.fbox_id === b.id).map(({ id, no, name }) => ({ id, no, name })),
    })),
    miners: tested,
    at: now,
  };
};
