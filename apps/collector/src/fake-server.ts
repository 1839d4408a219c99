import type { Server, Socket } from 'node:net';

/**
 * What the fake devices for tests share (the CGMiner, Whatsminer v2/v3 and Antminer web fakes):
 * how they misbehave, the readings a fake miner is given, and listening on a free port of
 * 127.0.0.1 with a `stop` that also closes the connections a hanging fake holds open.
 */

/** `hang`: accept and never answer; `garbage`: answer bytes that are not the protocol. */
export type FakeBehaviour = 'normal' | 'hang' | 'garbage';

/** Readings and place of a fake miner, whatever protocol it speaks. */
export interface FakeMinerReadings {
  /** Hash rate now, TH/s. */
  hashrateTh?: number;
  /** Nominal hash rate, TH/s. */
  idealTh?: number;
  chipMaxTemp?: number;
  chipAvgTemp?: number;
  powerW?: number;
  /** Its active pool, `stratum+tcp://host:port`. */
  pool?: string;
  worker?: string;
  /** Seconds the miner has been up at start. */
  uptimeS?: number;
  /** A fan stands still (0 rpm). */
  fanStopped?: boolean;
  behaviour?: FakeBehaviour;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface Listening {
  port: number;
  /** Closes the server and every connection it still has. */
  stop(): Promise<void>;
}

/** Starts `server` (a net or http server) on `host:port`, tracking its connections for `stop`. */
export const listenFake = async (server: Server, host: string, port = 0): Promise<Listening> => {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};
