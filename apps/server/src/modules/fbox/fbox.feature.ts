import { defineFeature } from '../feature.js';
import { fboxHandlers } from './fbox.routes.js';
import { FboxService } from './fbox.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    fboxes: FboxService;
  }
}

/** FBOX containers: list, detail, history, edit, transfer, delete. */
export const fboxFeature = defineFeature({
  name: 'fbox',
  register(app) {
    app.decorate('fboxes', new FboxService(app));
  },
  handlers: fboxHandlers,
});
