import type { EndpointName } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { Migration } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { HandlersFor } from './handler.js';

/**
 * One feature of the console, declared in its own folder (`<name>.feature.ts`) and listed once in
 * `features.ts`: the tables it adds, the services it decorates the app with, and the handlers of its
 * contract endpoints. Its live events extend `LiveEventMap` and its tables extend `DB` by declaration
 * merging, in its own files.
 */
export interface Feature<N extends EndpointName = EndpointName> {
  name: string;
  /**
   * Migrations by name (`0010_tasks`). The names of every feature and of the core sort into one
   * order, so a feature's migration runs after the core tables it refers to.
   */
  migrations?: (dialect: Dialect) => Record<string, Migration>;
  /** Decorates the app with the feature's services; runs after the core (database, devices, ingest, jobs). */
  register?: (app: FastifyInstance) => void;
  /** One handler per endpoint of the feature's contract. */
  handlers: HandlersFor<N>;
}

/** Declares a feature; its endpoint names are inferred from its handlers. */
export const defineFeature = <N extends EndpointName>(feature: Feature<N>): Feature<N> => feature;
