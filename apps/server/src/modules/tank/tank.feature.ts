import { defineFeature } from '../feature.js';
import { tankHandlers } from './tank.routes.js';
import { TankService } from './tank.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    tanks: TankService;
  }
}

/** Oil-immersion tanks: list, detail, history, control. */
export const tankFeature = defineFeature({
  name: 'tank',
  register(app) {
    app.decorate('tanks', new TankService(app));
  },
  handlers: tankHandlers,
});
