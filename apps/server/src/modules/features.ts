import type { EndpointName } from '@fbox/contracts';
import type { Dialect } from '../db/database.js';
import type { Migrations } from '../db/migrations.js';
import { alarmFeature } from './alarm/alarm.feature.js';
import { areaFeature } from './area/area.feature.js';
import { authFeature } from './auth/auth.feature.js';
import { boardFeature } from './board/board.feature.js';
import { cameraFeature } from './camera/camera.feature.js';
import { commandFeature } from './command/command.feature.js';
import { electricityFeature } from './electricity/electricity.feature.js';
import { fboxFeature } from './fbox/fbox.feature.js';
import { fboxConfigFeature } from './fbox-config/fbox-config.feature.js';
import type { Feature } from './feature.js';
import type { HandlerMap } from './handler.js';
import { logExportFeature } from './log-export/log-export.feature.js';
import { messageFeature } from './message/message.feature.js';
import { mineFeature } from './mine/mine.feature.js';
import { minerFeature } from './miner/miner.feature.js';
import { notifyFeature } from './notify/notify.feature.js';
import { oplogFeature } from './oplog/oplog.feature.js';
import { poolFeature } from './pool/pool.feature.js';
import { statisticFeature } from './statistic/statistic.feature.js';
import { subaccountFeature } from './subaccount/subaccount.feature.js';
import { tankFeature } from './tank/tank.feature.js';
import { taskFeature } from './task/task.feature.js';
import { totalFeature } from './total/total.feature.js';
import { userFeature } from './user/user.feature.js';

/**
 * Every feature of the console, in the order their services are registered (a service may use
 * those registered before it when it is built). Adding a feature is its folder plus one line here.
 */
export const features = [
  authFeature,
  userFeature,
  areaFeature,
  fboxFeature,
  tankFeature,
  minerFeature,
  commandFeature,
  electricityFeature,
  totalFeature,
  subaccountFeature,
  poolFeature,
  mineFeature,
  fboxConfigFeature,
  oplogFeature,
  taskFeature,
  alarmFeature,
  messageFeature,
  notifyFeature,
  statisticFeature,
  boardFeature,
  cameraFeature,
  logExportFeature,
] as const;

/** The endpoints the listed features handle (the keys of each one's handlers). */
type Handled = (typeof features)[number]['handlers'] extends infer H
  ? H extends unknown
    ? keyof H
    : never
  : never;
/** Endpoints of the contract no feature handles: must be none (a compile error otherwise). */
type Unhandled = Exclude<EndpointName, Handled>;
const everyEndpointHandled: [Unhandled] extends [never] ? true : Unhandled = true;

/** Every endpoint of the contract with its handler, from the features. */
export const handlers = (): HandlerMap => {
  void everyEndpointHandled;
  const all: Partial<Record<EndpointName, unknown>> = {};
  for (const feature of features as readonly Feature[]) {
    for (const [name, handler] of Object.entries(feature.handlers)) {
      if (name in all) throw new Error(`Endpoint ${name} is handled by two features`);
      all[name as EndpointName] = handler;
    }
  }
  return all as HandlerMap;
};

/** The migrations of every feature, by name. */
export const featureMigrations = (dialect: Dialect): Migrations => {
  const all: Migrations = {};
  for (const feature of features as readonly Feature[]) {
    for (const [name, migration] of Object.entries(feature.migrations?.(dialect) ?? {})) {
      if (name in all) throw new Error(`Migration ${name} is declared by two features`);
      all[name] = migration;
    }
  }
  return all;
};
