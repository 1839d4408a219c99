import {
  Code,
  type Endpoint,
  endpoints,
  envelope,
  FboxDetailSchema,
  FboxListItemSchema,
  listOf,
} from '@fbox/contracts';
import { z } from 'zod';
import type { BoxKind } from './model/miner.js';

/** An FBOX as the server's API describes it, with the MQTT account the gateway needs. */
export interface ServerFbox {
  areaId: number;
  id: number;
  name: string;
  deviceId: string;
  kind: BoxKind;
  tankCount: number;
  ipRange: string;
  reportingIntervalS: number;
  username: string;
  password: string;
}

export interface ServerSourceOptions {
  /** `http://host:port` of the FBOX Cloud server. */
  serverUrl: string;
  username: string;
  password: string;
  /** TOTP code, when the account uses two-factor sign-in. */
  googleCode?: string;
  /** Only this area (mine); default every area the account sees. */
  areaId?: number;
  fetch?: typeof fetch;
}

/** What the simulator reads of the list and detail answers (the rest of the contract is ignored). */
const ListItem = FboxListItemSchema.pick({ id: true, device_id: true, name: true, kind: true });
const Detail = FboxDetailSchema.pick({
  id: true,
  area_id: true,
  name: true,
  kind: true,
  ip_range: true,
  device_id: true,
  mqtt_username: true,
  mqtt_password: true,
  reporting_interval_s: true,
  tank_count: true,
});

const PAGE = 500;

/**
 * Sign in to the server's API and list every FBOX (of one area or all) with its MQTT account, through
 * the endpoints of `@fbox/contracts`: `login`, `areaList`, `fboxList`, `fboxDetail`. The account must
 * be allowed to see MQTT credentials (a master or administrator).
 */
export const fetchServerFboxes = async (options: ServerSourceOptions): Promise<ServerFbox[]> => {
  const doFetch = options.fetch ?? fetch;
  const base = options.serverUrl.replace(/\/+$/, '');
  let token: string | undefined;

  const call = async <D extends z.ZodType>(
    endpoint: Endpoint,
    params: Record<string, string | number>,
    data: D,
  ): Promise<z.infer<D>> => {
    const fields = new URLSearchParams({ output: 'json' });
    for (const [k, v] of Object.entries(params)) fields.set(k, String(v));
    const isGet = endpoint.method === 'GET';
    const headers: Record<string, string> = {};
    if (token) headers.logintoken = token;
    if (!isGet) headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    const url = `${base}${endpoint.path}${isGet ? `?${fields}` : ''}`;
    const response = await doFetch(url, {
      method: endpoint.method,
      headers,
      ...(isGet ? {} : { body: fields.toString() }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw new Error(`${endpoint.path}: HTTP ${response.status}`);
    const json: unknown = await response.json();
    const head = envelope(z.unknown()).safeParse(json);
    if (!head.success) throw new Error(`${endpoint.path}: not an API envelope`);
    if (head.data.code !== Code.OK)
      throw new Error(`${endpoint.path}: ${head.data.msg} (code ${head.data.code})`);
    const parsed = data.safeParse(head.data.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${endpoint.path}: unexpected answer (${issue?.path.join('.')}: ${issue?.message})`);
    }
    return parsed.data as z.infer<D>;
  };

  const login = await call(
    endpoints.login,
    { username: options.username, password: options.password, googleCode: options.googleCode ?? '' },
    endpoints.login.data,
  );
  token = login.logintoken;

  const areaIds =
    options.areaId !== undefined
      ? [options.areaId]
      : (await call(endpoints.areaList, {}, endpoints.areaList.data)).map((a) => a.id);
  const boxes: ServerFbox[] = [];
  for (const areaId of areaIds) {
    const items: Array<z.infer<typeof ListItem>> = [];
    for (let page = 1; ; page++) {
      const list = await call(endpoints.fboxList, { area_id: areaId, page, limit: PAGE }, listOf(ListItem));
      items.push(...list.items);
      if (list.items.length < PAGE || items.length >= list.total) break;
    }
    for (const item of items) {
      const d = await call(endpoints.fboxDetail, { area_id: areaId, id: item.id }, Detail);
      if (d.mqtt_username === undefined || d.mqtt_password === undefined)
        throw new Error(
          `FBOX ${d.name} (${d.device_id}): the server does not show its MQTT account to ${options.username}; sign in with a master account`,
        );
      boxes.push({
        areaId,
        id: d.id,
        name: d.name,
        deviceId: d.device_id,
        kind: d.kind,
        tankCount: d.tank_count,
        ipRange: d.ip_range,
        reportingIntervalS: d.reporting_interval_s,
        username: d.mqtt_username,
        password: d.mqtt_password,
      });
    }
  }
  return boxes;
};
