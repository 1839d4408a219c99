import { ADMIN_PASSWORD, ADMIN_USER, type RunningServer } from './server.js';

/** Gateways of the demo mine report every ~12 s: a wait for what a report brings gets two and slack. */
export const LIVE_TIMEOUT = 30_000;

/** The answer of every API call (DESIGN §4). */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export interface ListPage<T> {
  items: T[];
  total: number;
}

type Params = Record<string, string | number>;

/** The data of a successful answer; anything but `code: 1` fails the test with the server's words. */
export const dataOf = <T>(path: string, envelope: Envelope<T>): T => {
  if (envelope.code !== 1) throw new Error(`${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
};

/**
 * A signed-in API session, for what a test sets up or checks behind the page: the same calls the
 * console makes, with the session token in the `logintoken` header.
 */
export interface Api {
  token: string;
  /** A GET with query parameters. */
  get<T>(path: string, query?: Params): Promise<T>;
  /** A POST of form fields, as legacy clients send them. */
  post<T>(path: string, fields?: Params): Promise<T>;
  /** A POST of a JSON body, answered with its envelope whatever its code. */
  postJson<T>(path: string, body: object): Promise<Envelope<T>>;
}

/** Signs in through the API (the admin unless told otherwise). */
export const signInApi = async (
  server: RunningServer,
  credentials: { username: string; password: string } = { username: ADMIN_USER, password: ADMIN_PASSWORD },
): Promise<Api> => {
  const url = (path: string) => new URL(path, server.url);
  const login = await fetch(url('/index/index/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(credentials),
  });
  const { logintoken: token } = dataOf('login', (await login.json()) as Envelope<{ logintoken: string }>);
  const answer = async <T>(path: string, init: RequestInit) =>
    (await (await fetch(url(path), init)).json()) as Envelope<T>;
  return {
    token,
    get: async (path, query = {}) => {
      const target = url(path);
      for (const [key, value] of Object.entries(query)) target.searchParams.set(key, String(value));
      return dataOf(path, await answer(target.toString(), { headers: { logintoken: token } }));
    },
    post: async (path, fields = {}) =>
      dataOf(
        path,
        await answer(path, {
          method: 'POST',
          headers: { logintoken: token, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])),
        }),
      ),
    postJson: (path, body) =>
      answer(path, {
        method: 'POST',
        headers: { logintoken: token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  };
};

/** The id of the demo mine (DEMO=1 seeds it). */
export const demoMineId = async (api: Api): Promise<number> => {
  const areas = await api.get<{ id: number; area_name: string }[]>('/index/fbox.area/index');
  const id = areas.find((area) => area.area_name === 'Demo Mine')?.id;
  if (!id) throw new Error(`no Demo Mine among ${areas.map((a) => a.area_name).join(', ')}`);
  return id;
};

/**
 * Asks `probe` every 250 ms until it answers something other than undefined, and returns that;
 * after `timeout` fails with what was awaited and the server's log.
 */
export const eventually = async <T>(
  server: RunningServer,
  awaited: string,
  probe: () => Promise<T | undefined>,
  timeout = LIVE_TIMEOUT,
): Promise<T> => {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${awaited}: not within ${timeout} ms\n${server.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

export interface FboxRow {
  id: number;
  /** The gateway's device id (the simulator names boxes by it). */
  device_id: string;
  name: string;
  kind: 'air' | 'immersion' | 'hydro';
  status: string;
}

/**
 * The demo mine's FBOXes once every one is online and has stored its first report: its miners
 * exist (they appear with that report). A box's status comes on a topic of its own and can be
 * online before its first report is written.
 */
export const reportedBoxes = (server: RunningServer, api: Api, areaId: number): Promise<FboxRow[]> =>
  eventually(server, 'telemetry from every demo FBOX', async () => {
    const boxes = await api.get<ListPage<FboxRow>>('/index/fbox.boxlist/index', { area_id: areaId });
    if (boxes.items.length === 0 || boxes.items.some((b) => b.status !== 'online')) return undefined;
    for (const box of boxes.items) {
      const miners = await api.get<ListPage<unknown>>('/index/fbox.miner/index', {
        area_id: areaId,
        fbox_id: box.id,
        limit: 1,
      });
      if (miners.total === 0) return undefined;
    }
    return boxes.items;
  });
