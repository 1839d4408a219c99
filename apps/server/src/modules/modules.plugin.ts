import fp from 'fastify-plugin';
import type { Feature } from './feature.js';
import { features } from './features.js';

/** Decorates the app with every feature's services, in the order of `features`. */
export const modulesPlugin = fp(
  async (app) => {
    for (const feature of features as readonly Feature[]) feature.register?.(app);
  },
  { name: 'modules', dependencies: ['db'] },
);
