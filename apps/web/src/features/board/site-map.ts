import type { MinerBoard } from '@fbox/contracts';
import type { BoardMiner } from './miner-colours';
import type { MapFbox } from './miner-layout';

/** What the site map needs of a miner to place it (the miner and commissioning boards' miners). */
export interface SiteMiner {
  id: number;
  fbox_id: number;
  tank_no: number | null;
  slot: number | null;
  online: boolean;
}

/** A group of an FBOX's block: one tank's miners, or those outside tanks (`tank` null). */
export interface SiteGroup<M extends SiteMiner = BoardMiner> {
  key: string;
  tank: { no: number; name: string } | null;
  miners: M[];
}

/** An FBOX of the site map: its tanks by position, then the miners outside tanks. */
export interface SiteFbox<M extends SiteMiner = BoardMiner> {
  id: number;
  name: string;
  online: boolean;
  groups: SiteGroup<M>[];
  minersOnline: number;
  miners: number;
}

/** Slot (PDU outlet) order; miners without a slot after those with one, then by id. */
const bySlot = (a: SiteMiner, b: SiteMiner) =>
  (a.slot ?? Number.MAX_SAFE_INTEGER) - (b.slot ?? Number.MAX_SAFE_INTEGER) || a.id - b.id;

/**
 * The board's answer as the site map draws it: FBOXes in the answer's (name) order; in each, its
 * tanks by position with their miners in slot order, and a group for miners outside tanks (a miner
 * naming a tank its FBOX does not list counts as outside).
 */
export const buildSiteMap = <M extends SiteMiner = BoardMiner>(data: {
  fboxes: MinerBoard['fboxes'];
  miners: M[];
}): SiteFbox<M>[] => {
  const byFbox = new Map<number, M[]>();
  for (const miner of data.miners) {
    const list = byFbox.get(miner.fbox_id);
    if (list) list.push(miner);
    else byFbox.set(miner.fbox_id, [miner]);
  }
  return data.fboxes.map((fbox) => {
    const miners = byFbox.get(fbox.id) ?? [];
    const tanks = [...fbox.tanks].sort((a, b) => a.no - b.no);
    const known = new Set(tanks.map((tank) => tank.no));
    const groups: SiteGroup<M>[] = tanks.map((tank) => ({
      key: `tank-${tank.no}`,
      tank: { no: tank.no, name: tank.name },
      miners: miners.filter((m) => m.tank_no === tank.no).sort(bySlot),
    }));
    const outside = miners.filter((m) => m.tank_no === null || !known.has(m.tank_no)).sort(bySlot);
    if (outside.length > 0) groups.push({ key: 'outside', tank: null, miners: outside });
    return {
      id: fbox.id,
      name: fbox.name,
      online: fbox.online,
      groups,
      minersOnline: miners.filter((m) => m.online).length,
      miners: miners.length,
    };
  });
};

/** What the layout needs of the site map: the size of each FBOX's groups. */
export const layoutShape = <M extends SiteMiner>(fboxes: readonly SiteFbox<M>[]): MapFbox[] =>
  fboxes.map((fbox) => ({ id: fbox.id, groups: fbox.groups.map((group) => group.miners.length) }));
