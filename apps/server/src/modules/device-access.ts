import { Code } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../lib/api-error.js';
import type { AreaAccess } from './area/area.service.js';

/**
 * What the device services use from the app. Read at call time: the command and device services
 * are decorated by plugins registered after the modules.
 */
export type DeviceDeps = Pick<
  FastifyInstance,
  | 'db'
  | 'dbDialect'
  | 'clock'
  | 'config'
  | 'areas'
  | 'commands'
  | 'devices'
  | 'miners'
  | 'fboxConfig'
  | 'accountSwitches'
  | 'secrets'
>;

/** Changing devices (create, edit, delete, transfer, credentials) needs a master or administrator. */
export const requireManage = (access: AreaAccess): void => {
  if (!access.canManage) throw new ApiError(Code.FORBIDDEN, 'api.forbidden');
};

export const notFound = (): never => {
  throw new ApiError(Code.NOT_FOUND, 'api.notFound');
};
