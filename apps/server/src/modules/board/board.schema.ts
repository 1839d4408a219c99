import type { BoardTheme, BoardType } from '@fbox/contracts';
import type { Generated } from 'kysely';

/** Row types of the board tables (migration 0027_boards). Times are UTC epoch ms. */

/** A board of a mine: a full-screen page (`type`) with its title and options. */
export interface BoardsTable {
  id: Generated<number>;
  area_id: number;
  type: BoardType;
  title: string;
  theme: BoardTheme;
  created_at: number;
  updated_at: number;
}

/** An FBOX a board covers; a board without rows here covers its whole mine. */
export interface BoardFboxesTable {
  board_id: number;
  fbox_id: number;
}

declare module '../../db/schema.js' {
  interface DB {
    boards: BoardsTable;
    board_fboxes: BoardFboxesTable;
  }
}
