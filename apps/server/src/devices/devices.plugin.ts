import fp from 'fastify-plugin';
import { LiveEvents } from '../realtime/live-events.js';
import { LiveRelay } from '../realtime/live-relay.js';
import { CommandService } from './command.service.js';
import { DeviceService } from './device.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live events of this process (ingest and commands publish; the WebSocket hub subscribes). */
    live: LiveEvents;
    devices: DeviceService;
    commands: CommandService;
  }
}

/**
 * Decorates the app with the live bus (relayed between processes on PostgreSQL) and the device and
 * command services (before MQTT).
 */
export const devicesPlugin = fp(
  async (app) => {
    const live = new LiveEvents();
    // One listener per WebSocket subscriber is normal; the default warning at 10 is noise here.
    live.setMaxListeners(0);
    // Processes sharing a PostgreSQL database hear each other's live events.
    const { dbListen: listen, dbNotify: notify } = app;
    if (listen && notify) {
      const relay = new LiveRelay(live, { listen, notify }, app.log);
      relay.start();
      app.addHook('onClose', () => relay.stop());
    }
    const devices = new DeviceService(app.db, app.clock, app.secrets);
    app.decorate('live', live);
    app.decorate('devices', devices);
    app.decorate(
      'commands',
      new CommandService(app.db, app.clock, live, devices, app.log, app.config.commandTimeoutMs),
    );
  },
  { name: 'devices', dependencies: ['db', 'secrets'] },
);
