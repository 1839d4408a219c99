import { areaHandlers } from '../../modules/area/area.routes.js';
import { authHandlers } from '../../modules/auth/auth.routes.js';
import { commandHandlers } from '../../modules/command/command.routes.js';
import { electricityHandlers } from '../../modules/electricity/electricity.routes.js';
import { fboxHandlers } from '../../modules/fbox/fbox.routes.js';
import { fboxConfigHandlers } from '../../modules/fbox-config/fbox-config.routes.js';
import type { HandlerMap } from '../../modules/handler.js';
import { messageHandlers } from '../../modules/message/message.routes.js';
import { mineHandlers } from '../../modules/mine/mine.routes.js';
import { minerHandlers } from '../../modules/miner/miner.routes.js';
import { oplogHandlers } from '../../modules/oplog/oplog.routes.js';
import { poolHandlers } from '../../modules/pool/pool.routes.js';
import { subAccountHandlers } from '../../modules/subaccount/subaccount.routes.js';
import { tankHandlers } from '../../modules/tank/tank.routes.js';
import { taskHandlers } from '../../modules/task/task.routes.js';
import { totalHandlers } from '../../modules/total/total.routes.js';
import { userHandlers } from '../../modules/user/user.routes.js';

/** Every endpoint of the contract with its handler; the type makes a missing one a compile error. */
export const legacyHandlers: HandlerMap = {
  ...authHandlers,
  ...userHandlers,
  ...areaHandlers,
  ...messageHandlers,
  ...fboxHandlers,
  ...tankHandlers,
  ...minerHandlers,
  ...commandHandlers,
  ...electricityHandlers,
  ...totalHandlers,
  ...subAccountHandlers,
  ...mineHandlers,
  ...poolHandlers,
  ...fboxConfigHandlers,
  ...oplogHandlers,
  ...taskHandlers,
};
