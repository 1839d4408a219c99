import { z } from 'zod';
import {
  AreaCreateBodySchema,
  AreaEditBodySchema,
  AreaSchema,
  IdBodySchema,
  UnreadCountSchema,
} from './area.js';
import {
  ChangePasswordBodySchema,
  LoginBodySchema,
  LoginDataSchema,
  TotpCodeBodySchema,
  TotpSetupDataSchema,
} from './auth.js';
import { SetUserInfoBodySchema, UserInfoQuerySchema, UserInfoSchema } from './user.js';

/**
 * Who may call an endpoint: `public` needs no token, `user` any signed-in account, `master` only a
 * master account (is_masterID 1). Later issues add operator/administrator rules.
 */
export type Permission = 'public' | 'user' | 'master';

/** One endpoint described as data: the server registers routes from it, the web calls through it. */
export interface Endpoint<
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  D extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST';
  /** Path without the `/api` alias prefix. */
  path: string;
  permission: Permission;
  query?: Q;
  body?: B;
  data: D;
  /** Info-style call: the envelope also carries `info`, and the web shows failures as a 2 s toast. */
  info?: boolean;
  /** The call changes state (recorded by the operation log of a later issue). */
  mutates?: boolean;
}

/** Keeps each endpoint's exact shape, so an endpoint without a body has no `body` in its type. */
const endpoint = <const E extends Endpoint>(e: E): E => e;

const Empty = z.object({});
const Nothing = z.null();

/** Legacy query parameters every legacy call may carry. */
export const LegacyQuerySchema = z.object({
  output: z.string().optional(),
  area_id: z.coerce.number().int().optional(),
});

export const endpoints = {
  login: endpoint({
    method: 'POST',
    path: '/index/index/login',
    permission: 'public',
    body: LoginBodySchema,
    data: LoginDataSchema,
  }),
  logout: endpoint({
    method: 'POST',
    path: '/index/index/logout',
    permission: 'user',
    body: Empty,
    data: Nothing,
  }),
  getUserInfo: endpoint({
    method: 'GET',
    path: '/index/fbox.user/getuserinfo',
    permission: 'user',
    query: UserInfoQuerySchema,
    data: UserInfoSchema,
    info: true,
  }),
  setUserInfo: endpoint({
    method: 'POST',
    path: '/index/fbox.user/setuserinfo',
    permission: 'user',
    body: SetUserInfoBodySchema,
    data: UserInfoSchema,
    mutates: true,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/index/fbox.total/changepassword',
    permission: 'user',
    body: ChangePasswordBodySchema,
    data: Nothing,
    mutates: true,
  }),
  totpSetup: endpoint({
    method: 'POST',
    path: '/index/fbox.user/totp_setup',
    permission: 'user',
    body: Empty,
    data: TotpSetupDataSchema,
    mutates: true,
  }),
  totpEnable: endpoint({
    method: 'POST',
    path: '/index/fbox.user/totp_enable',
    permission: 'user',
    body: TotpCodeBodySchema,
    data: Nothing,
    mutates: true,
  }),
  totpDisable: endpoint({
    method: 'POST',
    path: '/index/fbox.user/totp_disable',
    permission: 'user',
    body: TotpCodeBodySchema,
    data: Nothing,
    mutates: true,
  }),
  areaList: endpoint({
    method: 'GET',
    path: '/index/fbox.area/index',
    permission: 'user',
    data: z.array(AreaSchema),
  }),
  areaCreate: endpoint({
    method: 'POST',
    path: '/index/fbox.area/create',
    permission: 'master',
    body: AreaCreateBodySchema,
    data: AreaSchema,
    mutates: true,
  }),
  areaEdit: endpoint({
    method: 'POST',
    path: '/index/fbox.area/edit',
    permission: 'master',
    body: AreaEditBodySchema,
    data: AreaSchema,
    mutates: true,
  }),
  areaDelete: endpoint({
    method: 'POST',
    path: '/index/fbox.area/deleted',
    permission: 'master',
    body: IdBodySchema,
    data: Nothing,
    mutates: true,
  }),
  unreadCount: endpoint({
    method: 'GET',
    path: '/index/fbox.message/unread',
    permission: 'user',
    data: UnreadCountSchema,
  }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type EndpointData<N extends EndpointName> = z.infer<Endpoints[N]['data']>;
/** What a caller sends as the body of an endpoint (zod input type); `never` when it takes none. */
export type EndpointBody<N extends EndpointName> = Endpoints[N] extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : never;
/** What a caller sends as the query of an endpoint (zod input type); `never` when it takes none. */
export type EndpointQuery<N extends EndpointName> = Endpoints[N] extends { query: infer Q extends z.ZodType }
  ? z.input<Q>
  : never;
/** The validated body as the server sees it (zod output type). */
export type EndpointBodyOutput<N extends EndpointName> = Endpoints[N] extends {
  body: infer B extends z.ZodType;
}
  ? z.output<B>
  : never;
/** The validated query as the server sees it (zod output type). */
export type EndpointQueryOutput<N extends EndpointName> = Endpoints[N] extends {
  query: infer Q extends z.ZodType;
}
  ? z.output<Q>
  : never;
