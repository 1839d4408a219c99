import type { FastifyInstance } from 'fastify';
import { isUniqueViolation } from './db/errors.js';
import { newPassword } from './lib/tokens.js';

/**
 * First start on an empty database: the master account (with a generated password printed once
 * when none is configured) and, in demo mode, a mine for the simulator to fill.
 */
export const ensureMasterAccount = async (
  app: FastifyInstance,
  options: { adminUser: string; adminPassword: string | undefined; demo: boolean },
): Promise<void> => {
  if ((await app.users.count()) > 0) return;
  const password = options.adminPassword ?? newPassword();
  let userId: number;
  try {
    userId = await app.users.create({ username: options.adminUser, password, is_master: true });
  } catch (error) {
    // Another process started on the same database at the same moment and created it first.
    if (isUniqueViolation(error)) return;
    throw error;
  }
  if (options.adminPassword) app.log.info(`Master account "${options.adminUser}" created`);
  else app.log.warn(`Master account "${options.adminUser}" created with password: ${password}`);
  if (options.demo) {
    await app.areas.create(userId, { area_name: 'Demo Mine', electricity_hz: 50 });
    app.log.info('Demo mine "Demo Mine" created');
  }
};
