import { defineFeature } from '../feature.js';
import { electricityHandlers } from './electricity.routes.js';
import { ElectricityService } from './electricity.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    electricity: ElectricityService;
  }
}

/** Electricity meters and power readings. */
export const electricityFeature = defineFeature({
  name: 'electricity',
  register(app) {
    app.decorate('electricity', new ElectricityService(app));
  },
  handlers: electricityHandlers,
});
