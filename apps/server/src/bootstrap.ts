import type { FastifyInstance } from 'fastify';
import { isUniqueViolation } from './db/errors.js';
import { demoAreaName, seedDemoFboxes, seedDemoPool } from './demo.js';
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
    const area = await app.areas.create(userId, { area_name: demoAreaName, electricity_hz: 50 });
    await seedDemoFboxes(app, area.id);
    await seedDemoPool(app, area.id, userId);
    app.log.info(`Demo mine "${demoAreaName}" created with its FBOXes`);
  }
};

/**
 * DEMO=1 on an existing database: a demo mine without FBOXes (created before devices existed, or
 * emptied by hand) gets them again, so the simulator has gateways to run.
 */
export const ensureDemoFboxes = async (app: FastifyInstance): Promise<void> => {
  const empty = await app.db
    .selectFrom('areas')
    .leftJoin('fboxes', 'fboxes.area_id', 'areas.id')
    .select('areas.id')
    .where('areas.area_name', '=', demoAreaName)
    .where('fboxes.id', 'is', null)
    .execute();
  for (const area of empty) await seedDemoFboxes(app, area.id);
  // Demo mines made before the pool sync get their pool subaccount.
  const demos = await app.db
    .selectFrom('areas')
    .select(['id', 'owner_id'])
    .where('area_name', '=', demoAreaName)
    .execute();
  for (const area of demos) await seedDemoPool(app, area.id, area.owner_id);
};
