import { EventEmitter } from 'node:events';
import type { CommandStatus } from '@fbox/contracts';

/**
 * What changed in a mine, as ingest and the command service announce it. The WebSocket hub turns
 * these into pushes to the browsers watching that mine; nothing else listens today.
 */
export type LiveEvent =
  /** A telemetry batch was written: the listed FBOXes (and their tanks and miners) have new state. */
  | { type: 'telemetry'; areaId: number; fboxIds: number[] }
  /** An FBOX gateway went online or offline (status topic, last will or silence). */
  | { type: 'status'; areaId: number; fboxId: number; online: boolean }
  /** A command changed status (sent, acknowledged, failed, timed out). */
  | {
      type: 'command';
      areaId: number;
      fboxId: number;
      commandId: string;
      status: CommandStatus;
      minerId: number | null;
      tankId: number | null;
    };

/** In-process bus of live events; one per server process. */
export class LiveEvents extends EventEmitter<{ live: [LiveEvent] }> {
  publish(event: LiveEvent): void {
    this.emit('live', event);
  }
}
