import { randomBytes } from 'node:crypto';
import { type Authority, type OperatorRule, operatorRules } from '@fbox/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { CreatedFbox, CreateFboxInput } from '../devices/device.service.js';
import { newTotpSecret, totpCode } from '../lib/totp.js';

export interface TestUser {
  id: number;
  username: string;
  password: string;
}

const unique = () => randomBytes(4).toString('hex');

export const createUser = async (
  app: FastifyInstance,
  options: { username?: string; password?: string; isMaster?: boolean; parentId?: number } = {},
): Promise<TestUser> => {
  const username = options.username ?? `user_${unique()}`;
  const password = options.password ?? 'correct-horse-1';
  const id = await app.users.create({
    username,
    password,
    is_master: options.isMaster ?? true,
    parent_id: options.parentId ?? null,
  });
  return { id, username, password };
};

export const createMaster = (app: FastifyInstance, options: { username?: string; password?: string } = {}) =>
  createUser(app, { ...options, isMaster: true });

/**
 * A sub-account of `parent` managing the given areas: an operator holding every rule unless told
 * otherwise (`authority: 'administrator'`, or `rules` naming fewer).
 */
export const createSubAccount = async (
  app: FastifyInstance,
  parent: TestUser,
  areaIds: number[] = [],
  options: { authority?: Authority; rules?: readonly OperatorRule[] } = {},
) => {
  const user = await createUser(app, { isMaster: false, parentId: parent.id });
  await app.db
    .updateTable('users')
    .set({
      authority: options.authority ?? 'operator',
      rules: JSON.stringify(options.rules ?? operatorRules),
    })
    .where('id', '=', user.id)
    .execute();
  for (const areaId of areaIds) {
    await app.db.insertInto('user_areas').values({ user_id: user.id, area_id: areaId }).execute();
  }
  return user;
};

/** Turns TOTP on directly in the database (sealed, as the server stores it); returns the secret. */
export const enableTotp = async (app: FastifyInstance, userId: number): Promise<string> => {
  const secret = newTotpSecret();
  await app.db
    .updateTable('users')
    .set({ totp_secret: app.secrets.seal(secret) })
    .where('id', '=', userId)
    .execute();
  return secret;
};

export const createArea = (app: FastifyInstance, ownerId: number, name = `Mine ${unique()}`) =>
  app.areas.create(ownerId, { area_name: name });

export const code = (secret: string, now: number) => totpCode(secret, now);

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  remoteAddress?: string;
  /** Send the body form-encoded (the legacy client's way) instead of JSON. */
  form?: boolean;
}

const form = (body: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(body).map(([k, v]): [string, string] => [
      k,
      typeof v === 'string' ? v : JSON.stringify(v),
    ]),
  ).toString();

/** GET with query parameters; returns the raw response (check `.json()`). */
export const get = (
  app: FastifyInstance,
  url: string,
  query: Record<string, string> = {},
  options: CallOptions = {},
): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'GET',
    url,
    query,
    headers: { ...(options.token && { logintoken: options.token }), ...options.headers },
    cookies: options.cookies,
    remoteAddress: options.remoteAddress,
  });

export const post = (
  app: FastifyInstance,
  url: string,
  body: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'POST',
    url,
    payload: options.form ? form(body) : body,
    headers: {
      ...(options.form && { 'content-type': 'application/x-www-form-urlencoded' }),
      ...(options.token && { logintoken: options.token }),
      ...options.headers,
    },
    cookies: options.cookies,
    remoteAddress: options.remoteAddress,
  });

/** Logs in through the API and returns the token (fails the test when login fails). */
export const login = async (app: FastifyInstance, user: TestUser, googleCode = ''): Promise<string> => {
  const res = await post(app, '/index/index/login', {
    username: user.username,
    password: user.password,
    googleCode,
  });
  const body = res.json();
  if (body.code !== 1) throw new Error(`login failed: ${res.body}`);
  return body.data.logintoken as string;
};

/** An FBOX in `areaId` with generated MQTT credentials (immersion with 2 tanks unless told). */
export const createFbox = (
  app: FastifyInstance,
  areaId: number,
  input: Partial<CreateFboxInput> = {},
): Promise<CreatedFbox> =>
  app.devices.createFbox(areaId, { name: `Box ${unique()}`, kind: 'immersion', tanks: 2, ...input });

/** A tank of `fboxId` (numbered `no`), created directly. */
export const createTank = async (app: FastifyInstance, fbox: { id: number; area_id: number }, no: number) => {
  const now = app.clock();
  const row = await app.db
    .insertInto('tanks')
    .values({
      area_id: fbox.area_id,
      fbox_id: fbox.id,
      no,
      name: `Tank ${no}`,
      work_number: '',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
};

/** A miner with a state row (offline, no readings), as ingest would create it. */
export const createMiner = async (
  app: FastifyInstance,
  fbox: { id: number; area_id: number },
  options: { sn?: string; tankId?: number | null; model?: string; online?: boolean } = {},
) => {
  const now = app.clock();
  const sn = options.sn ?? `SN${unique()}`;
  const row = await app.db
    .insertInto('miners')
    .values({ area_id: fbox.area_id, fbox_id: fbox.id, tank_id: options.tankId ?? null, sn, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await app.db
    .insertInto('miner_info')
    .values({
      miner_id: row.id,
      area_id: fbox.area_id,
      fbox_id: fbox.id,
      tank_id: options.tankId ?? null,
      sn,
      model: options.model ?? 'S19 Pro',
      online: options.online ? 1 : 0,
    })
    .execute();
  await app.db.insertInto('miner_readings').values({ miner_id: row.id, updated_at: now }).execute();
  return { id: row.id, sn };
};
