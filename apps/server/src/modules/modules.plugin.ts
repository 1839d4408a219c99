import fp from 'fastify-plugin';
import { AreaService } from './area/area.service.js';
import { ElectricityService } from './electricity/electricity.service.js';
import { FboxService } from './fbox/fbox.service.js';
import { MessageService } from './message/message.service.js';
import { MinerService } from './miner/miner.service.js';
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
    // ── end sub-accounts ──

    // ── mines and pools ──
    // ── end mines and pools ──

    // ── fbox config and account switches ──
    // ── end fbox config and account switches ──

    // ── operation log ──
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
    app.decorate('areas', new AreaService(app.db, app.clock));
    app.decorate('messages', new MessageService(app.db));
    // Device services read the command and device services from the app when called.
    app.decorate('fboxes', new FboxService(app));
    app.decorate('tanks', new TankService(app));
    app.decorate('miners', new MinerService(app));
    app.decorate('electricity', new ElectricityService(app));
    app.decorate('totals', new TotalService(app));
    // ── sub-accounts ──
    // ── end sub-accounts ──

    // ── mines and pools ──
    // ── end mines and pools ──

    // ── fbox config and account switches ──
    // ── end fbox config and account switches ──

    // ── operation log ──
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
