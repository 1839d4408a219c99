import { defineFeature } from '../feature.js';
import { minerHandlers } from './miner.routes.js';
import { MinerService } from './miner.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    miners: MinerService;
  }
}

/** Miners: the list, detail, history, bulk actions and export. */
export const minerFeature = defineFeature({
  name: 'miner',
  register(app) {
    app.decorate('miners', new MinerService(app));
  },
  handlers: minerHandlers,
});
