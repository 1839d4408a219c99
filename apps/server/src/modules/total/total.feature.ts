import { defineFeature } from '../feature.js';
import { totalHandlers } from './total.routes.js';
import { TotalService } from './total.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    totals: TotalService;
  }
}

/** The home page summary of a mine. */
export const totalFeature = defineFeature({
  name: 'total',
  register(app) {
    app.decorate('totals', new TotalService(app));
  },
  handlers: totalHandlers,
});
