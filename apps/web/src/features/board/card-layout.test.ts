import { describe, expect, it } from 'vitest';
import { fitCards, pageCards } from './card-layout';

describe('card layout', () => {
  it('picks the grid giving the largest card', () => {
    // 8 cards in 1880×960, gap 10, at least 2.3× as wide as tall: 3 columns × 3 rows, 269 px tall
    // (620 px wide ÷ 2.3; 4 columns make them 201 px, 2 columns 232 px).
    expect(fitCards(8, 1880, 960, 10, 2.3)).toEqual({ columns: 3, rows: 3, height: 269 });
    expect(fitCards(1, 1880, 960, 10, 2.3)).toEqual({ columns: 1, rows: 1, height: 817 });
  });

  it('keeps every card on one page while legible, else pages as many as still fit', () => {
    const area = { width: 1880, height: 960 };
    expect(pageCards(8, area, 10, 2.3, 120)).toMatchObject({ perPage: 8, pages: 1 });
    const paged = pageCards(200, area, 10, 2.3, 120);
    expect(paged.height).toBeGreaterThanOrEqual(120);
    expect(paged.pages).toBe(Math.ceil(200 / paged.perPage));
    // One more card a page would make them too small.
    expect(fitCards(paged.perPage + 1, 1880, 960, 10, 2.3).height).toBeLessThan(120);
  });
});
