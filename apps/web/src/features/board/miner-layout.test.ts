import { describe, expect, it } from 'vitest';
import {
  blockWidth,
  cellGap,
  cellsPerRow,
  fitFboxes,
  type MapFbox,
  type MapMetrics,
  mapMetrics,
  pageFboxes,
  pitchLimits,
} from './miner-layout';

const m: MapMetrics = { fboxHeader: 20, groupHeader: 16, pad: 5, gap: 10 };
const fbox = (id: number, ...groups: number[]): MapFbox => ({ id, groups });

/** The height the blocks take, as the CSS draws them (rows of blocks as tall as their tallest). */
const drawnHeight = (fboxes: MapFbox[], width: number, columns: number, pitch: number) => {
  const perRow = cellsPerRow(blockWidth(width, columns, m) - 2 * m.pad, pitch);
  const heights = fboxes.map(
    (f) =>
      2 * m.pad +
      m.fboxHeader +
      f.groups.reduce((sum, n) => sum + m.groupHeader + Math.ceil(n / perRow) * pitch, 0),
  );
  let total = 0;
  for (let i = 0; i < heights.length; i += columns)
    total += (i > 0 ? m.gap : 0) + Math.max(...heights.slice(i, i + columns));
  return total;
};

describe('fitFboxes', () => {
  it('finds the largest cell pitch at which the FBOXes fit, and it is the largest', () => {
    const fboxes = [fbox(1, 35, 35, 35), fbox(2, 25, 25, 25, 25), fbox(3, 80), fbox(4, 60)];
    const area = { width: 1880, height: 900 };
    const fit = fitFboxes(fboxes, area, m, 200)!;
    expect(fit.pitch).toBeGreaterThan(20);
    expect(drawnHeight(fboxes, area.width, fit.columns, fit.pitch)).toBeLessThanOrEqual(area.height);
    for (let columns = 1; columns <= fboxes.length; columns++)
      expect(drawnHeight(fboxes, area.width, columns, fit.pitch + 1)).toBeGreaterThan(area.height);
  });

  it('keeps a row of cells inside its block', () => {
    for (const pitch of [3, 10, 17, 40]) {
      const inner = 333;
      const perRow = cellsPerRow(inner, pitch);
      expect(perRow * pitch - cellGap(pitch)).toBeLessThanOrEqual(inner);
      expect((perRow + 1) * pitch - cellGap(pitch)).toBeGreaterThan(inner);
    }
  });

  it('stops at the largest pitch worth drawing, and says when nothing fits', () => {
    expect(fitFboxes([fbox(1, 4)], { width: 1900, height: 1000 }, m, 60)?.pitch).toBe(60);
    expect(fitFboxes([fbox(1, 4)], { width: 10, height: 10 }, m, 60)).toBeNull();
  });
});

describe('pageFboxes', () => {
  const screen = 1080;
  const metrics = mapMetrics(screen);
  const limits = pitchLimits(screen);

  it('puts every FBOX on one page when they fit at a legible size', () => {
    const fboxes = [fbox(1, 35, 35, 35), fbox(2, 25, 25, 25, 25), fbox(3, 80), fbox(4, 60)];
    const pages = pageFboxes(fboxes, { width: 1880, height: 950 }, metrics, limits);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.fboxIds).toEqual([1, 2, 3, 4]);
    expect(pages[0]!.pitch).toBeGreaterThanOrEqual(limits.min);
  });

  it('splits FBOXes into pages, in order, each legible, when the area is too small for them all', () => {
    // 60 FBOXes of 4 tanks × 40 miners: 9,600 miners.
    const fboxes = Array.from({ length: 60 }, (_, i) => fbox(i + 1, 40, 40, 40, 40));
    const area = { width: 1880, height: 950 };
    expect(fitFboxes(fboxes, area, metrics, limits.max)!.pitch).toBeLessThan(limits.min);
    const pages = pageFboxes(fboxes, area, metrics, limits);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap((page) => page.fboxIds)).toEqual(fboxes.map((f) => f.id));
    for (const page of pages) expect(page.pitch).toBeGreaterThanOrEqual(limits.min);
    // A page does not stop early: the next FBOX would not have fitted legibly on it.
    const first = pages[0]!.fboxIds.length;
    expect(fitFboxes(fboxes.slice(0, first + 1), area, metrics, limits.max)!.pitch).toBeLessThan(limits.min);
  });

  it('gives an FBOX too large for the screen a page of its own', () => {
    const fboxes = [fbox(1, 10), fbox(2, 20_000), fbox(3, 10)];
    const pages = pageFboxes(fboxes, { width: 800, height: 450 }, metrics, limits);
    expect(pages.map((page) => page.fboxIds)).toEqual([[1], [2], [3]]);
  });

  it('scales the legible size with the screen: 10 px at 1080p, 20 px at 4K', () => {
    expect(pitchLimits(1080).min).toBe(10);
    expect(pitchLimits(2160).min).toBe(20);
  });
});
