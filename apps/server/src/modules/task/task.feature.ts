import { defineFeature } from '../feature.js';
import { MinerGroupService } from './group.service.js';
import { TaskEngine } from './task.engine.js';
import { tasksMigration } from './task.migration.js';
import { taskHandlers } from './task.routes.js';
import { TaskService } from './task.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    minerGroups: MinerGroupService;
    tasks: TaskService;
    taskEngine: TaskEngine;
  }
}

/** Miner groups, reboot and temperature tasks, and the engine that runs them. */
export const taskFeature = defineFeature({
  name: 'task',
  migrations: (dialect) => ({ '0010_tasks': tasksMigration(dialect) }),
  register(app) {
    app.decorate('minerGroups', new MinerGroupService(app));
    app.decorate('tasks', new TaskService(app));
    const engine = new TaskEngine(app, app.config.taskLeaseMs);
    app.decorate('taskEngine', engine);
    // Items follow their commands' acks and timeouts as they arrive in this process.
    app.commands.onSettled((settled) => engine.commandSettled(settled));
    // It claims each task with a lease of its own, so it has its own loop, started with the jobs'.
    app.jobs.onStart(() => engine.start());
    app.addHook('onClose', async () => engine.stop());
  },
  handlers: taskHandlers,
});
