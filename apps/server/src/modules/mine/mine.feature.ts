import { defineFeature } from '../feature.js';
import { mineHandlers } from './mine.routes.js';
import { MineService } from './mine.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    mines: MineService;
  }
}

/** Manage Mines: mines with their Agent Key and gateway clients. */
export const mineFeature = defineFeature({
  name: 'mine',
  register(app) {
    app.decorate('mines', new MineService(app));
  },
  handlers: mineHandlers,
});
