import { defineFeature } from '../feature.js';
import { commandHandlers } from './command.routes.js';

/** Command status and batches, as the console follows them. */
export const commandFeature = defineFeature({
  name: 'command',
  handlers: commandHandlers,
});
