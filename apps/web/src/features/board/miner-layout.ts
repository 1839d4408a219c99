/**
 * How a miner board's site map fills the screen: FBOX blocks in a grid of equal columns, each block
 * a title over its groups (tanks, then the miners outside tanks), each group a title over a grid of
 * square cells. Pure, so the fitting is tested without a browser; the CSS draws exactly these sizes.
 */

/** An FBOX as the layout sees it: how many miners each of its groups holds. */
export interface MapFbox {
  id: number;
  groups: readonly number[];
}

/** Fixed sizes of the map's parts, px (they follow the screen's height; see `mapMetrics`). */
export interface MapMetrics {
  /** An FBOX block's title line. */
  fboxHeader: number;
  /** A tank's (group's) title line. */
  groupHeader: number;
  /** Padding inside an FBOX block. */
  pad: number;
  /** Space between FBOX blocks. */
  gap: number;
}

/** How a set of FBOXes is drawn: blocks per row and the cell pitch (cell + the gap after it), px. */
export interface MapFit {
  columns: number;
  pitch: number;
}

/** One page of the map: the FBOXes it shows (a run of the board's) and how. */
export interface MapPage extends MapFit {
  fboxIds: number[];
}

export interface Area {
  width: number;
  height: number;
}

/** The map's sizes for a screen of this height: 1080p → 17 px text, 4K → 34 px. */
export const mapMetrics = (screenHeight: number): MapMetrics & { unit: number } => {
  const unit = Math.round(Math.min(44, Math.max(11, screenHeight / 64)));
  return {
    unit,
    fboxHeader: Math.round(unit * 1.7),
    groupHeader: Math.round(unit * 1.3),
    pad: Math.round(unit * 0.5),
    gap: Math.round(unit * 0.6),
  };
};

/**
 * The smallest cell pitch still legible across a room (10 px at 1080p, 20 px at 4K), and the
 * largest worth drawing (a board of a few miners need not show fist-sized cells).
 */
export const pitchLimits = (screenHeight: number) => ({
  min: Math.max(6, Math.round(screenHeight / 108)),
  max: Math.max(12, Math.round(screenHeight / 16)),
});

/** The gap after each cell for a pitch: ~15 %, at least a pixel. */
export const cellGap = (pitch: number): number => Math.max(1, Math.round(pitch * 0.15));

/** Cells per row of a group in a block of this inner width. */
export const cellsPerRow = (innerWidth: number, pitch: number): number =>
  Math.floor((innerWidth + cellGap(pitch)) / pitch);

const blockHeight = (fbox: MapFbox, perRow: number, pitch: number, m: MapMetrics): number => {
  let height = 2 * m.pad + m.fboxHeader;
  // An FBOX with no miners and no tanks still shows one line saying so.
  if (fbox.groups.length === 0) return height + m.groupHeader;
  for (const miners of fbox.groups) height += m.groupHeader + Math.ceil(miners / perRow) * pitch;
  return height;
};

/** The width of one block when `columns` blocks share a row of `width`. */
export const blockWidth = (width: number, columns: number, m: MapMetrics): number =>
  (width - (columns - 1) * m.gap) / columns;

/** Whether the FBOXes fit the area in `columns` blocks per row at this pitch. */
const fits = (fboxes: readonly MapFbox[], area: Area, columns: number, pitch: number, m: MapMetrics) => {
  const perRow = cellsPerRow(blockWidth(area.width, columns, m) - 2 * m.pad, pitch);
  if (perRow < 1) return false;
  let height = 0;
  for (let start = 0; start < fboxes.length; start += columns) {
    let row = 0;
    for (const fbox of fboxes.slice(start, start + columns))
      row = Math.max(row, blockHeight(fbox, perRow, pitch, m));
    height += (start > 0 ? m.gap : 0) + row;
    if (height > area.height) return false;
  }
  return true;
};

/**
 * The largest pitch (up to `maxPitch`) at which the FBOXes fit the area, with the number of blocks
 * per row that allows it (fewer when equal); null when they do not fit even at 1 px.
 */
export const fitFboxes = (
  fboxes: readonly MapFbox[],
  area: Area,
  m: MapMetrics,
  maxPitch: number,
): MapFit | null => {
  let best: MapFit | null = null;
  for (let columns = 1; columns <= Math.max(1, fboxes.length); columns++) {
    // Fitting only gets harder as the pitch grows: search the largest that fits.
    let low: number = best ? best.pitch + 1 : 1;
    let high = maxPitch;
    if (low > high || !fits(fboxes, area, columns, low, m)) continue;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (fits(fboxes, area, columns, middle, m)) low = middle;
      else high = middle - 1;
    }
    best = { columns, pitch: low };
  }
  return best;
};

/**
 * The FBOXes in pages: all on one when they fit at a legible pitch (`minPitch`), else runs of
 * FBOXes in their order, each as long as still fits legibly (an FBOX too large for the screen
 * alone gets a page of its own at whatever pitch it fits).
 */
export const pageFboxes = (
  fboxes: readonly MapFbox[],
  area: Area,
  m: MapMetrics,
  limits: { min: number; max: number },
): MapPage[] => {
  const fallback = (run: readonly MapFbox[]): MapFit =>
    fitFboxes(run, area, m, limits.max) ?? { columns: Math.max(1, run.length), pitch: 1 };
  const whole = fallback(fboxes);
  if (fboxes.length <= 1 || whole.pitch >= limits.min)
    return [{ ...whole, fboxIds: fboxes.map((f) => f.id) }];
  const pages: MapPage[] = [];
  let start = 0;
  while (start < fboxes.length) {
    let fit = fallback(fboxes.slice(start, start + 1));
    let end = start + 1;
    while (end < fboxes.length) {
      const longer = fitFboxes(fboxes.slice(start, end + 1), area, m, limits.max);
      if (!longer || longer.pitch < limits.min) break;
      fit = longer;
      end += 1;
    }
    pages.push({ ...fit, fboxIds: fboxes.slice(start, end).map((f) => f.id) });
    start = end;
  }
  return pages;
};
