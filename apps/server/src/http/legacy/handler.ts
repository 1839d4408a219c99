import type { Readable } from 'node:stream';
import type {
  EndpointBodyOutput,
  EndpointName,
  EndpointQueryOutput,
  Endpoints,
  Language,
  SharedMessageKey,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { WithJsonText } from '../../lib/json-text.js';
import type { ClientInfo, SessionUser } from '../../modules/auth/auth.service.js';

/** The validated input of an endpoint: its body for POST, its query for GET, else nothing. */
export type EndpointInput<N extends EndpointName> = [EndpointBodyOutput<N>] extends [never]
  ? [EndpointQueryOutput<N>] extends [never]
    ? Record<string, never>
    : EndpointQueryOutput<N>
  : EndpointBodyOutput<N>;

/** What a handler gets: the app (for its services), the caller and the request's context. */
export interface HandlerContext<N extends EndpointName> {
  app: FastifyInstance;
  input: EndpointInput<N>;
  user: Endpoints[N]['permission'] extends 'public' ? null : SessionUser;
  /** `area_id` from the query or the body, when given. */
  areaId: number | undefined;
  lang: Language;
  client: ClientInfo;
}

/** What a `download` endpoint's handler answers: the file, sent as an attachment. */
export interface FileDownload {
  filename: string;
  contentType: string;
  body: string | Readable;
}

export type Handler<N extends EndpointName> = (
  ctx: HandlerContext<N>,
) => Promise<
  Endpoints[N] extends { download: true } ? FileDownload : WithJsonText<z.input<Endpoints[N]['data']>>
>;

/** One handler per endpoint: a missing one fails the typecheck. */
export type HandlerMap = { [N in EndpointName]: Handler<N> };

/** Handlers of one module. */
export type HandlersFor<N extends EndpointName> = { [K in N]: Handler<K> };

/** Success texts other than the default `api.ok`. */
export const successMessages: Partial<Record<EndpointName, SharedMessageKey>> = {
  logout: 'api.loggedOut',
  setUserInfo: 'api.modified',
  changePassword: 'api.passwordChanged',
  totpEnable: 'api.modified',
  totpDisable: 'api.modified',
  areaCreate: 'api.modified',
  areaEdit: 'api.modified',
  areaDelete: 'api.modified',
  fboxCreate: 'api.modified',
  fboxEdit: 'api.modified',
  fboxDelete: 'api.modified',
  fboxTransfer: 'api.modified',
  fboxRegenerateMqtt: 'api.modified',
  fboxSetting: 'api.commandSent',
  tankAdd: 'api.modified',
  tankEdit: 'api.modified',
  tankDelete: 'api.modified',
  tankOilSetting: 'api.commandSent',
  tankControllerSwitch: 'api.commandSent',
  tankControllerSwitchV2: 'api.commandSent',
  tankMultipleOperate: 'api.commandSent',
  minerDelete: 'api.modified',
  minerRestart: 'api.commandSent',
  minerChangePool: 'api.commandSent',
  minerResaveAccount: 'api.commandSent',
  minerAutoOverclock: 'api.commandSent',
  minerChangeMode: 'api.commandSent',
  minerMultipleOperate: 'api.commandSent',
  electricitySetMeter: 'api.modified',
  // ── sub-accounts ──
  subAccountCreate: 'api.modified',
  subAccountEdit: 'api.modified',
  subAccountDelete: 'api.modified',
  // ── end sub-accounts ──

  // ── mines and pools ──
  observerLinkCreate: 'api.modified',
  observerLinkDelete: 'api.modified',
  poolSubaccountSave: 'api.modified',
  poolSubaccountRemove: 'api.modified',
  mineRegenerateAgentKey: 'api.agentKeyRegenerated',
  mineClientRevoke: 'api.clientRevoked',
  // ── end mines and pools ──

  // ── fbox config and account switches ──
  fboxDefaultsSave: 'api.modified',
  fboxDefaultsRemove: 'api.modified',
  fboxConfigSave: 'api.commandSent',
  // ── end fbox config and account switches ──

  // ── operation log ──
  // ── end operation log ──

  // ── tasks ──
  minerGroupAdd: 'api.modified',
  minerGroupEdit: 'api.modified',
  minerGroupDelete: 'api.modified',
  minerGroupAddMiner: 'api.modified',
  minerGroupRemoveMiner: 'api.modified',
  rebootTaskAdd: 'api.modified',
  rebootTaskUpdate: 'api.modified',
  rebootTaskStart: 'api.modified',
  rebootTaskStop: 'api.modified',
  rebootTaskDelete: 'api.modified',
  tempTaskAdd: 'api.modified',
  tempTaskUpdate: 'api.modified',
  tempTaskStart: 'api.modified',
  tempTaskStop: 'api.modified',
  tempTaskDelete: 'api.modified',
  // ── end tasks ──
};
