/**
 * How a board of equal cards (the tank board's tanks) fills its area: the grid of columns and rows
 * that gives the largest card, and pages when even the best grid would make them illegible. A card
 * holds `lines` lines of text and is `aspect` times as wide as tall at least. Pure, so the fitting
 * is tested without a browser.
 */

export interface CardFit {
  columns: number;
  rows: number;
  /** The card's height, px: its text is sized from it. */
  height: number;
}

export interface CardPages extends CardFit {
  /** Cards per page (all of them when one page holds them). */
  perPage: number;
  pages: number;
}

/** The best grid for `count` cards in `width × height`, `gap` px between them. */
export const fitCards = (
  count: number,
  width: number,
  height: number,
  gap: number,
  aspect: number,
): CardFit => {
  let best: CardFit = { columns: 1, rows: Math.max(1, count), height: 0 };
  for (let columns = 1; columns <= Math.max(1, count); columns++) {
    const rows = Math.max(1, Math.ceil(count / columns));
    const cardWidth = (width - (columns - 1) * gap) / columns;
    const cardHeight = (height - (rows - 1) * gap) / rows;
    const size = Math.floor(Math.min(cardHeight, cardWidth / aspect));
    if (size > best.height) best = { columns, rows, height: size };
  }
  return best;
};

/**
 * The cards on pages: all on one when they fit at `minHeight` or more, else as many per page as
 * still fit at that height (at least one).
 */
export const pageCards = (
  count: number,
  area: { width: number; height: number },
  gap: number,
  aspect: number,
  minHeight: number,
): CardPages => {
  const whole = fitCards(count, area.width, area.height, gap, aspect);
  if (count <= 1 || whole.height >= minHeight) return { ...whole, perPage: Math.max(1, count), pages: 1 };
  let perPage = 1;
  let low = 1;
  let high = count;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    if (fitCards(middle, area.width, area.height, gap, aspect).height >= minHeight) {
      perPage = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return {
    ...fitCards(perPage, area.width, area.height, gap, aspect),
    perPage,
    pages: Math.ceil(count / perPage),
  };
};
