import { defineFeature } from '../feature.js';
import { areaHandlers } from './area.routes.js';
import { AreaService } from './area.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    areas: AreaService;
  }
}

/** Mines (areas): list, create, edit, delete; access of sub-accounts. */
export const areaFeature = defineFeature({
  name: 'area',
  register(app) {
    app.decorate('areas', new AreaService(app.db, app.clock, app.secrets));
  },
  handlers: areaHandlers,
});
