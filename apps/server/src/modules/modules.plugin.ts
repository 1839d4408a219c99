import fp from 'fastify-plugin';
import { AreaService } from './area/area.service.js';
import { ElectricityService } from './electricity/electricity.service.js';
import { FboxService } from './fbox/fbox.service.js';
import { AccountSwitchService } from './fbox-config/account-switches.service.js';
import { FboxConfigService } from './fbox-config/fbox-config.service.js';
import { MessageService } from './message/message.service.js';
import { MineService } from './mine/mine.service.js';
import { MinerService } from './miner/miner.service.js';
import { OplogService } from './oplog/oplog.service.js';
import { PoolService } from './pool/pool.service.js';
import { SubAccountService } from './subaccount/subaccount.service.js';
import { TankService } from './tank/tank.service.js';
import { MinerGroupService } from './task/group.service.js';
import { TaskEngine } from './task/task.engine.js';
import { TaskService } from './task/task.service.js';
import { TotalService } from './total/total.service.js';
import { UserService } from './user/user.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    users: UserService;
    areas: AreaService;
    messages: MessageService;
    fboxes: FboxService;
    tanks: TankService;
    miners: MinerService;
    electricity: ElectricityService;
    totals: TotalService;
    // ── sub-accounts ──
    subAccounts: SubAccountService;
    // ── end sub-accounts ──

    // ── mines and pools ──
    pools: PoolService;
    mines: MineService;
    // ── end mines and pools ──

    // ── fbox config and account switches ──
    fboxConfig: FboxConfigService;
    accountSwitches: AccountSwitchService;
    // ── end fbox config and account switches ──

    // ── operation log ──
    oplog: OplogService;
    // ── end operation log ──

    // ── tasks ──
    minerGroups: MinerGroupService;
    tasks: TaskService;
    taskEngine: TaskEngine;
    // ── end tasks ──
  }
}

/** Decorates the app with the domain services the HTTP adapters (and later MQTT and jobs) call. */
export const modulesPlugin = fp(
  async (app) => {
    app.decorate('users', new UserService(app.db, app.clock));
    app.decorate('areas', new AreaService(app.db, app.clock, app.secrets));
    app.decorate('messages', new MessageService(app.db));
    // Device services read the command and device services from the app when called.
    app.decorate('fboxes', new FboxService(app));
    app.decorate('tanks', new TankService(app));
    app.decorate('miners', new MinerService(app));
    app.decorate('electricity', new ElectricityService(app));
    app.decorate('totals', new TotalService(app));
    // ── sub-accounts ──
    app.decorate('subAccounts', new SubAccountService(app.db, app.clock));
    // ── end sub-accounts ──

    // ── mines and pools ──
    app.decorate('pools', new PoolService(app));
    app.decorate('mines', new MineService(app));
    // ── end mines and pools ──

    // ── fbox config and account switches ──
    app.decorate('fboxConfig', new FboxConfigService(app));
    app.decorate('accountSwitches', new AccountSwitchService(app));
    // ── end fbox config and account switches ──

    // ── operation log ──
    app.decorate('oplog', new OplogService(app));
    // ── end operation log ──

    // ── tasks ──
    app.decorate('minerGroups', new MinerGroupService(app));
    app.decorate('tasks', new TaskService(app));
    {
      const engine = new TaskEngine(app, app.config.taskLeaseMs);
      app.decorate('taskEngine', engine);
      // Items follow their commands' acks and timeouts as they arrive in this process.
      app.commands.onSettled((settled) => engine.commandSettled(settled));
      app.addHook('onClose', async () => engine.stop());
    }
    // ── end tasks ──
  },
  { name: 'modules', dependencies: ['db'] },
);
