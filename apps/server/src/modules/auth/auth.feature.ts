import { defineFeature } from '../feature.js';
import { authHandlers } from './auth.routes.js';

/** Sign-in, two-factor enrolment and sessions (the session services are registered early, by auth.plugin). */
export const authFeature = defineFeature({
  name: 'auth',
  handlers: authHandlers,
});
