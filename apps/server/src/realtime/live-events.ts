import { EventEmitter } from 'node:events';
import type { CommandStatus } from '@fbox/contracts';

/**
 * What changed in a mine, by event type, as ingest and the command service announce it. The WebSocket
 * hub turns these into pushes to the browsers watching that mine. A feature adds its own event types
 * from its folder by declaration merging:
 *
 *     declare module '../../realtime/live-events.js' {
 *       interface LiveEventMap { alert: { alertId: number } }
 *     }
 */
export interface LiveEventMap {
  /** A telemetry batch was written: the listed FBOXes (and their tanks and miners) have new state. */
  telemetry: { fboxIds: number[] };
  /** An FBOX gateway went online or offline (status topic, last will or silence). */
  status: { fboxId: number; online: boolean };
  /** A command changed status (sent, acknowledged, failed, timed out). */
  command: {
    fboxId: number;
    commandId: string;
    status: CommandStatus;
    minerId: number | null;
    tankId: number | null;
  };
}

/** One live event: its type, the mine it happened in, and that type's fields. */
export type LiveEvent = {
  [K in keyof LiveEventMap]: { type: K; areaId: number } & LiveEventMap[K];
}[keyof LiveEventMap];

/**
 * The bus of live events of one server process. With several processes on one PostgreSQL, a relay
 * (see LiveRelay) carries each process's events to the others.
 */
export class LiveEvents extends EventEmitter<{ live: [LiveEvent] }> {
  /** Set by a relay: hears every event this process publishes. */
  relay: ((event: LiveEvent) => void) | undefined;

  /** An event of this process: to its listeners, and through the relay to the other processes. */
  publish(event: LiveEvent): void {
    this.emit('live', event);
    this.relay?.(event);
  }

  /** An event another process published: to this process's listeners only. */
  deliver(event: LiveEvent): void {
    this.emit('live', event);
  }
}
