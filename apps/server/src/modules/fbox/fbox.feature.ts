import { agentRegisterHandler } from '../../mqtt/agent-register.js';
import { defineFeature } from '../feature.js';
import { agentFboxesMigration } from './agent-fbox.migration.js';
import { AgentRegistrationService } from './agent-registration.service.js';
import { fboxHandlers } from './fbox.routes.js';
import { FboxService } from './fbox.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    fboxes: FboxService;
    /** Site agents registering as FBOX gateways with their mine's Agent Key (over MQTT). */
    fboxAgents: AgentRegistrationService;
  }
}

/** FBOX containers: list, detail, history, edit, transfer, delete; and agents registering as one. */
export const fboxFeature = defineFeature({
  name: 'fbox',
  migrations: () => ({ '0032_agent_fboxes': agentFboxesMigration }),
  register(app) {
    app.decorate('fboxes', new FboxService(app));
    const agents = new AgentRegistrationService(app);
    app.decorate('fboxAgents', agents);
    const mqtt = app.mqtt;
    mqtt?.onAgentRegister(
      agentRegisterHandler({
        publish: (topic, payload, options) => mqtt.publish(topic, payload, options),
        registrar: agents,
        clock: app.clock,
        log: app.log,
      }),
    );
  },
  handlers: fboxHandlers,
});
