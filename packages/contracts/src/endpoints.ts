import { z } from 'zod';
import { accountEndpoints } from './accounts.js';
import { alarmEndpoints } from './alarm.js';
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
import { boardEndpoints } from './boards.js';
import { cameraEndpoints } from './cameras.js';
import {
  AppIndexSchema,
  AreaIdBodySchema,
  AreaScopeSchema,
  CommandBatchQuerySchema,
  CommandRefSchema,
  CommandSchema,
  CommandStatusQuerySchema,
  ElectricityFboxSchema,
  ElectricityIndexSchema,
  FboxCreateBodySchema,
  FboxDetailSchema,
  FboxEditBodySchema,
  FboxHistorySchema,
  FboxListItemSchema,
  FboxListQuerySchema,
  FboxOptionSchema,
  FboxSettingBodySchema,
  FboxTransferBodySchema,
  GetElectricityQuerySchema,
  HistoryQuerySchema,
  IngestStatsSchema,
  MeterCorrectionSchema,
  MeterCorrectionsQuerySchema,
  MqttCredentialsSchema,
  SetMeterBodySchema,
  SetMeterDataSchema,
} from './devices.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import { fboxConfigEndpoints } from './fbox-config.js';
import { hashrateStatisticEndpoints } from './hashrate.js';
import { inboxEndpoints } from './inbox.js';
import {
  MinerBatchResultSchema,
  MinerDeletedSchema,
  MinerDetailSchema,
  MinerExportQuerySchema,
  MinerFilterOptionsSchema,
  MinerHistorySchema,
  MinerIdsBodySchema,
  MinerListItemSchema,
  MinerListQuerySchema,
  MinerModeBodySchema,
  MinerMultipleBodySchema,
  MinerOverclockBodySchema,
  MinerPoolBodySchema,
} from './miner.js';
import { minerLogEndpoints } from './miner-logs.js';
import { mineEndpoints } from './mines.js';
import { notifyEndpoints } from './notify.js';
import { oplogEndpoints } from './oplog.js';
import { poolEndpoints } from './pools.js';
import { revenueEndpoints } from './revenue.js';
import { OptionalIdNumberSchema } from './rules.js';
import { statisticEndpoints } from './statistics.js';
import {
  TankAddBodySchema,
  TankBatchResultSchema,
  TankControllerSwitchBodySchema,
  TankControllerSwitchV2BodySchema,
  TankDetailSchema,
  TankEditBodySchema,
  TankHistorySchema,
  TankListItemSchema,
  TankListQuerySchema,
  TankMultipleBodySchema,
  TankOilSettingBodySchema,
  TankOptionSchema,
  TankOptionsQuerySchema,
  TankSearchItemSchema,
  TankSearchQuerySchema,
} from './tank.js';
import { taskEndpoints } from './tasks.js';
import { SetUserInfoBodySchema, UserInfoQuerySchema, UserInfoSchema } from './user.js';

const Empty = z.object({});
const Nothing = z.null();

/** FBOX, tank, miner, electricity, command and home endpoints (the device API). */
const deviceEndpoints = () =>
  ({
    fboxList: endpoint({
      method: 'GET',
      path: '/index/fbox.boxlist/index',
      permission: 'user',
      query: FboxListQuerySchema,
      data: listOf(FboxListItemSchema),
    }),
    fboxDetail: endpoint({
      method: 'GET',
      path: '/index/fbox.boxlist/detail',
      permission: 'user',
      query: AreaIdBodySchema,
      data: FboxDetailSchema,
    }),
    fboxOptions: endpoint({
      method: 'GET',
      path: '/index/fbox.boxlist/getboxlist',
      permission: 'user',
      query: AreaScopeSchema,
      data: z.array(FboxOptionSchema),
    }),
    fboxHistory: endpoint({
      method: 'GET',
      path: '/index/fbox.boxlist/history',
      permission: 'user',
      query: HistoryQuerySchema,
      data: FboxHistorySchema,
    }),
    fboxCreate: endpoint({
      method: 'POST',
      path: '/index/fbox.boxlist/create',
      permission: 'manage',
      body: FboxCreateBodySchema,
      data: FboxDetailSchema,
      mutates: true,
      success: 'api.modified',
    }),
    fboxEdit: endpoint({
      method: 'POST',
      path: '/index/fbox.boxlist/edit',
      permission: 'manage',
      body: FboxEditBodySchema,
      data: FboxDetailSchema,
      mutates: true,
      success: 'api.modified',
    }),
    fboxDelete: endpoint({
      method: 'POST',
      path: '/index/fbox.boxlist/deleted',
      permission: 'manage',
      body: AreaIdBodySchema,
      data: Nothing,
      mutates: true,
      success: 'api.modified',
    }),
    fboxTransfer: endpoint({
      method: 'POST',
      path: '/index/fbox.boxlist/transfer',
      permission: 'manage',
      body: FboxTransferBodySchema,
      data: Nothing,
      mutates: true,
      success: 'api.modified',
    }),
    fboxSetting: endpoint({
      method: 'POST',
      path: '/index/fbox.boxlist/setting',
      permission: 'manage',
      body: FboxSettingBodySchema,
      data: CommandRefSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    fboxRegenerateMqtt: endpoint({
      method: 'POST',
      path: '/index/fbox.boxlist/regenerate_mqtt',
      permission: 'manage',
      body: AreaIdBodySchema,
      data: MqttCredentialsSchema,
      mutates: true,
      success: 'api.modified',
    }),
    tankList: endpoint({
      method: 'GET',
      path: '/index/fbox.oillist/index',
      permission: 'user',
      query: TankListQuerySchema,
      data: listOf(TankListItemSchema),
    }),
    tankDetail: endpoint({
      method: 'GET',
      path: '/index/fbox.oillist/detail',
      permission: 'user',
      query: AreaIdBodySchema,
      data: TankDetailSchema,
    }),
    tankSearch: endpoint({
      method: 'GET',
      path: '/index/fbox.oillist/search_tank',
      permission: 'user',
      query: TankSearchQuerySchema,
      data: z.array(TankSearchItemSchema),
    }),
    tankOptions: endpoint({
      method: 'GET',
      path: '/index/fbox.oillist/gettanklist',
      permission: 'user',
      query: TankOptionsQuerySchema,
      data: z.array(TankOptionSchema),
    }),
    tankHistory: endpoint({
      method: 'GET',
      path: '/index/fbox.oillist/history',
      permission: 'user',
      query: HistoryQuerySchema,
      data: TankHistorySchema,
    }),
    tankAdd: endpoint({
      method: 'POST',
      path: '/index/fbox.oillist/add_tank',
      permission: 'manage',
      body: TankAddBodySchema,
      data: TankDetailSchema,
      mutates: true,
      success: 'api.modified',
    }),
    tankEdit: endpoint({
      method: 'POST',
      path: '/index/fbox.oillist/edit',
      permission: 'manage',
      body: TankEditBodySchema,
      data: TankDetailSchema,
      mutates: true,
      success: 'api.modified',
    }),
    tankDelete: endpoint({
      method: 'POST',
      path: '/index/fbox.oillist/deleted',
      permission: 'manage',
      body: AreaIdBodySchema,
      data: Nothing,
      mutates: true,
      success: 'api.modified',
    }),
    tankOilSetting: endpoint({
      method: 'POST',
      path: '/index/fbox.oillist/oil_setting',
      permission: 'manage',
      body: TankOilSettingBodySchema,
      data: CommandRefSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    tankControllerSwitch: endpoint({
      method: 'POST',
      path: '/index/fbox.oillist/controller_switch',
      permission: 'operate:tankControl',
      body: TankControllerSwitchBodySchema,
      data: CommandRefSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    tankControllerSwitchV2: endpoint({
      method: 'POST',
      path: '/index/fbox.oillist/controller_switch_v2',
      permission: 'operate:tankControl',
      body: TankControllerSwitchV2BodySchema,
      data: CommandRefSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    tankMultipleOperate: endpoint({
      method: 'POST',
      path: '/index/fbox.oillist/multipleoperate',
      permission: 'operate:tankControl',
      body: TankMultipleBodySchema,
      data: TankBatchResultSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    minerList: endpoint({
      method: 'GET',
      path: '/index/fbox.miner/index',
      permission: 'user',
      query: MinerListQuerySchema,
      data: listOf(MinerListItemSchema),
    }),
    minerDetail: endpoint({
      method: 'GET',
      path: '/index/fbox.miner/detail',
      permission: 'user',
      query: AreaIdBodySchema,
      data: MinerDetailSchema,
    }),
    minerFilterOptions: endpoint({
      method: 'GET',
      path: '/index/fbox.miner/filters',
      permission: 'user',
      query: AreaScopeSchema,
      data: MinerFilterOptionsSchema,
    }),
    minerHistory: endpoint({
      method: 'GET',
      path: '/index/fbox.miner/history',
      permission: 'user',
      query: HistoryQuerySchema,
      data: MinerHistorySchema,
    }),
    minerExport: endpoint({
      method: 'GET',
      path: '/index/fbox.miner/export',
      permission: 'user',
      query: MinerExportQuerySchema,
      data: z.string(),
      download: true,
    }),
    minerDelete: endpoint({
      method: 'POST',
      path: '/index/fbox.miner/deleted',
      permission: 'manage',
      body: MinerIdsBodySchema,
      data: MinerDeletedSchema,
      mutates: true,
      success: 'api.modified',
    }),
    minerRestart: endpoint({
      method: 'POST',
      path: '/index/fbox.miner/restart',
      permission: 'operate:minerControl',
      body: MinerIdsBodySchema,
      data: MinerBatchResultSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    minerChangePool: endpoint({
      method: 'POST',
      path: '/index/fbox.miner/changpooladdress',
      permission: 'operate:minerPool',
      body: MinerPoolBodySchema,
      data: MinerBatchResultSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    minerResaveAccount: endpoint({
      method: 'POST',
      path: '/index/fbox.miner/resaveaccount',
      permission: 'operate:minerControl',
      body: MinerIdsBodySchema,
      data: MinerBatchResultSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    minerAutoOverclock: endpoint({
      method: 'POST',
      path: '/index/fbox.miner/autooverclock',
      permission: 'operate:minerControl',
      body: MinerOverclockBodySchema,
      data: MinerBatchResultSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    minerChangeMode: endpoint({
      method: 'POST',
      path: '/index/fbox.miner/changemode',
      permission: 'operate:minerControl',
      body: MinerModeBodySchema,
      data: MinerBatchResultSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    minerMultipleOperate: endpoint({
      method: 'POST',
      path: '/index/fbox.miner/multipleoperate',
      permission: 'operate:minerControl',
      body: MinerMultipleBodySchema,
      data: MinerBatchResultSchema,
      mutates: true,
      success: 'api.commandSent',
    }),
    commandStatus: endpoint({
      method: 'GET',
      path: '/index/fbox.command/status',
      permission: 'user',
      query: CommandStatusQuerySchema,
      data: z.array(CommandSchema),
    }),
    commandBatch: endpoint({
      method: 'GET',
      path: '/index/fbox.command/batch',
      permission: 'user',
      query: CommandBatchQuerySchema,
      data: z.array(CommandSchema),
    }),
    electricityIndex: endpoint({
      method: 'GET',
      path: '/index/fbox.electricity/index',
      permission: 'user',
      query: AreaScopeSchema,
      data: ElectricityIndexSchema,
    }),
    electricityGet: endpoint({
      method: 'GET',
      path: '/index/fbox.electricity/getelectricity',
      permission: 'user',
      query: GetElectricityQuerySchema,
      data: ElectricityFboxSchema,
    }),
    electricitySetMeter: endpoint({
      method: 'POST',
      path: '/index/fbox.electricity/set_meter_data',
      permission: 'manage',
      body: SetMeterBodySchema,
      data: SetMeterDataSchema,
      mutates: true,
      success: 'api.modified',
    }),
    /** Meter readings entered by hand for one FBOX, newest first (issue 14). */
    meterCorrections: endpoint({
      method: 'GET',
      path: '/index/fbox.electricity/meter_corrections',
      permission: 'user',
      query: MeterCorrectionsQuerySchema,
      data: z.array(MeterCorrectionSchema),
    }),
    appIndex: endpoint({
      method: 'GET',
      path: '/index/fbox.total/getappindex',
      permission: 'user',
      query: AreaScopeSchema,
      data: AppIndexSchema,
    }),
    ingestStats: endpoint({
      method: 'GET',
      path: '/index/fbox.total/ingest',
      permission: 'master',
      data: IngestStatsSchema,
    }),
  }) as const;

/** Legacy query parameters every legacy call may carry. */
export const LegacyQuerySchema = z.object({
  output: z.string().optional(),
  area_id: OptionalIdNumberSchema,
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
    success: 'api.loggedOut',
    changesAccess: true,
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
    success: 'api.modified',
    changesAccess: true,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/index/fbox.total/changepassword',
    permission: 'user',
    body: ChangePasswordBodySchema,
    data: Nothing,
    mutates: true,
    success: 'api.passwordChanged',
    changesAccess: true,
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
    success: 'api.modified',
    changesAccess: true,
  }),
  totpDisable: endpoint({
    method: 'POST',
    path: '/index/fbox.user/totp_disable',
    permission: 'user',
    body: TotpCodeBodySchema,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
    changesAccess: true,
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
    success: 'api.modified',
    changesAccess: true,
  }),
  areaEdit: endpoint({
    method: 'POST',
    path: '/index/fbox.area/edit',
    permission: 'manage',
    body: AreaEditBodySchema,
    data: AreaSchema,
    mutates: true,
    success: 'api.modified',
    changesAccess: true,
  }),
  areaDelete: endpoint({
    method: 'POST',
    path: '/index/fbox.area/deleted',
    permission: 'master',
    body: IdBodySchema,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
    changesAccess: true,
  }),
  unreadCount: endpoint({
    method: 'GET',
    path: '/index/fbox.message/unread',
    permission: 'user',
    data: UnreadCountSchema,
  }),
  ...deviceEndpoints(),
  ...accountEndpoints,
  ...mineEndpoints,
  ...poolEndpoints,
  ...boardEndpoints,
  ...cameraEndpoints,
  ...minerLogEndpoints,
  ...fboxConfigEndpoints,
  ...oplogEndpoints,
  ...alarmEndpoints,
  ...statisticEndpoints,
  ...hashrateStatisticEndpoints,
  ...revenueEndpoints,
  ...inboxEndpoints,
  ...notifyEndpoints,
  ...taskEndpoints,
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
