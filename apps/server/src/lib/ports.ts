import type { Server } from 'node:net';

interface Logger {
  warn(msg: string): void;
}

export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

const isAddressInUse = (error: unknown) => (error as { code?: string } | null)?.code === 'EADDRINUSE';

/** The one line printed when a port the operator chose is taken. */
export const portInUseMessage = (name: 'HTTP' | 'MQTT', port: number): string =>
  `${name} port ${port} is already in use — set ${name === 'HTTP' ? 'PORT' : 'MQTT_PORT'} to a free port`;

/** The warning when the default MQTT port is taken and a free one is used instead. */
export const mqttFallbackMessage = (wanted: number, actual: number): string =>
  `MQTT port ${wanted} is in use by another program; the embedded broker listens on ${actual} instead; set MQTT_PORT or MQTT_URL to choose`;

/**
 * What to do when a port is taken: an explicitly chosen port is an error; the default MQTT port
 * falls back to any free port so `npm start` works next to a system Mosquitto.
 */
export const onPortTaken = (name: 'HTTP' | 'MQTT', port: number, explicit: boolean): 'fail' | 'fallback' =>
  name === 'MQTT' && !explicit && port !== 0 ? 'fallback' : 'fail';

const listen = (server: Server, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });

/** Listens on the port, applying `onPortTaken`; returns the port actually bound. */
export const listenOnFreeFallback = async (
  server: Server,
  options: { name: 'HTTP' | 'MQTT'; port: number; explicit: boolean; host: string },
  log: Logger,
): Promise<number> => {
  try {
    return await listen(server, options.port, options.host);
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    if (onPortTaken(options.name, options.port, options.explicit) === 'fail') {
      throw new PortInUseError(portInUseMessage(options.name, options.port));
    }
    const actual = await listen(server, 0, options.host);
    log.warn(mqttFallbackMessage(options.port, actual));
    return actual;
  }
};
