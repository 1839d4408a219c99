import { type Board, type BoardTheme, type BoardType, builtBoardTypes } from '@fbox/contracts';
import type { MessageKey } from '../../lib/route-types';

/** A board type's name is the title of its full-screen route, so list, dialog and tab agree. */
export const boardTypeKeys = {
  minerBigScreen: 'app.route.minerBigScreen',
  minerBoard: 'app.route.minerBoard',
  minerBoardTest: 'app.route.minerBoardTest',
  tankBoard: 'app.route.tankBoard',
  dataBoard: 'app.route.dataBoard',
  dataBoardNew: 'app.route.dataBoardNew',
} as const satisfies Record<BoardType, MessageKey>;

export const boardThemeKeys = {
  dark: 'board.theme.dark',
  light: 'board.theme.light',
} as const satisfies Record<BoardTheme, MessageKey>;

/** Whether a type's full-screen page exists (the others cannot be opened yet). */
export const isBuilt = (type: BoardType): boolean => (builtBoardTypes as readonly BoardType[]).includes(type);

/** The full-screen address of a board: its type's page, naming the board and its mine. */
export const boardPath = (board: Pick<Board, 'id' | 'area_id' | 'type'>): string =>
  `/${board.type}?${new URLSearchParams({ id: String(board.id), area_id: String(board.area_id) })}`;
