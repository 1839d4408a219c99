import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { listenOnFreeFallback } from '../lib/ports.js';

export interface Broker {
  port: number;
  close(): Promise<void>;
}

/**
 * The embedded MQTT broker. Device accounts arrive with the FBOX issue; until then every client is
 * refused, so the broker cannot be used by anyone while the port is already bound and reported.
 */
export const startBroker = async (
  options: { port: number; explicit: boolean; host: string },
  log: FastifyBaseLogger,
): Promise<Broker> => {
  const aedes = await Aedes.createBroker({
    authenticate: (client, username, _password, done) => {
      log.warn(
        { clientId: client.id, username },
        'MQTT client refused: device accounts are not configured yet',
      );
      const error = Object.assign(new Error('Not authorized'), { returnCode: 5 as const });
      done(error, false);
    },
  });
  const server: Server = createServer(aedes.handle);
  const port = await listenOnFreeFallback(server, { ...options, name: 'MQTT' }, log);
  return {
    port,
    close: async () => {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
