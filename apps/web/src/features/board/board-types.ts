import {
  type Board,
  type BoardMetric,
  type BoardTheme,
  type BoardType,
  builtBoardTypes,
} from '@fbox/contracts';
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

/** A positive integer from the address; 0 when missing or malformed. */
const positive = (text: string | null): number => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : 0;
};

/** A kiosk link's token as the server makes it (43 url-safe characters). */
const kioskToken = /^[A-Za-z0-9_-]{43}$/;

/**
 * The board a full-screen address names: by board and mine (`?id=…&area_id=…`, signed in; 0 for
 * what it lacks), or by a kiosk link (`?kiosk=<token>`, a wall TV without login).
 */
export const boardAddress = (search: URLSearchParams) => {
  const areaId = positive(search.get('area_id'));
  const id = positive(search.get('id'));
  const token = search.get('kiosk') ?? '';
  const kiosk = kioskToken.test(token) ? token : undefined;
  return { areaId, id, kiosk, named: kiosk !== undefined || (areaId > 0 && id > 0) };
};
export type BoardAddress = ReturnType<typeof boardAddress>;

/** The kiosk address of a board: what a wall TV opens, no login. */
export const kioskPath = (type: BoardType, token: string) =>
  `/${type}?${new URLSearchParams({ kiosk: token })}`;

/** What a miner board's cells are coloured by, as the dialog and the legend name it. */
export const metricKeys = {
  status: 'board.metric.status',
  chip_temp: 'board.metric.chipTemp',
  hashrate_ratio: 'board.metric.hashrateRatio',
  power: 'board.metric.power',
} as const satisfies Record<BoardMetric, MessageKey>;

/** The types whose page is the site map of miners (they have a metric and pages). */
export const isMinerBoard = (type: BoardType): boolean => type === 'minerBoard' || type === 'minerBigScreen';

/** The data boards: the mine's figures, and a camera tile when the board names a camera. */
export const isDataBoard = (type: BoardType): boolean => type === 'dataBoard' || type === 'dataBoardNew';

/** The types whose page turns through pages when what it shows does not fit (seconds per page). */
export const isPagedBoard = (type: BoardType): boolean =>
  isMinerBoard(type) || type === 'tankBoard' || type === 'minerBoardTest';
