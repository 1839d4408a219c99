import type { BoardMetric, BoardTheme, BoardType } from '@fbox/contracts';
import type { Generated } from 'kysely';

/** Row types of the board tables (migration 0027_boards). Times are UTC epoch ms. */

/** A board of a mine: a full-screen page (`type`) with its title and options. */
export interface BoardsTable {
  id: Generated<number>;
  area_id: number;
  type: BoardType;
  title: string;
  theme: BoardTheme;
  /** Miner boards: what colours the cells; seconds per page of FBOXes. */
  metric: Generated<BoardMetric>;
  page_seconds: Generated<number>;
  /** Commissioning boards (migration 0030): test window (h), pass ratio (%), hottest chip (°C). */
  test_hours: Generated<number>;
  pass_ratio: Generated<number>;
  max_chip_temp: Generated<number>;
  /** Data boards: the camera tile's camera (migration 0031_board_camera); null: none. */
  camera_id: number | null;
  /** SHA-256 (hex) of the kiosk link's token, and when it was made; null: no link. */
  kiosk_token_hash: string | null;
  kiosk_created_at: number | null;
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
