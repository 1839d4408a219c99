import type { LiveMessage } from '@fbox/contracts';
import type { LiveEvent, LiveEvents } from './live-events.js';

/** What the hub needs of a connected browser. */
export interface LiveClient {
  send(text: string): void;
  /** The signed-in user, for events addressed to users (their inbox) rather than a mine. */
  userId?: number;
}

const inboxFrame = JSON.stringify({ type: 'inbox' } satisfies LiveMessage);

/** Telemetry pushes per area are coalesced to at most one per this many ms. */
export const TELEMETRY_COALESCE_MS = 2000;

interface AreaRoom {
  clients: Set<LiveClient>;
  pendingFboxIds: Set<number>;
  timer: NodeJS.Timeout | null;
  lastTelemetryAt: number;
}

/**
 * Fans live events out to the browsers watching each area. Status and command changes go out at
 * once; telemetry (every box, every few seconds) is coalesced per area so a big mine does not flood
 * the browsers: the web only invalidates its caches on these messages, it does not read data from them.
 */
export class LiveHub {
  private readonly rooms = new Map<number, AreaRoom>();
  private readonly onEvent = (event: LiveEvent) => this.dispatch(event);

  constructor(
    private readonly live: LiveEvents,
    private readonly coalesceMs = TELEMETRY_COALESCE_MS,
  ) {
    live.on('live', this.onEvent);
  }

  /** Adds a client to an area; returns the function that removes it. */
  join(areaId: number, client: LiveClient): () => void {
    let room = this.rooms.get(areaId);
    if (!room) {
      room = { clients: new Set(), pendingFboxIds: new Set(), timer: null, lastTelemetryAt: 0 };
      this.rooms.set(areaId, room);
    }
    room.clients.add(client);
    return () => {
      const current = this.rooms.get(areaId);
      if (!current) return;
      current.clients.delete(client);
      if (current.clients.size === 0) {
        if (current.timer) clearTimeout(current.timer);
        this.rooms.delete(areaId);
      }
    };
  }

  /** Clients watching an area (tests, metrics). */
  size(areaId?: number): number {
    if (areaId !== undefined) return this.rooms.get(areaId)?.clients.size ?? 0;
    let n = 0;
    for (const room of this.rooms.values()) n += room.clients.size;
    return n;
  }

  close(): void {
    this.live.off('live', this.onEvent);
    for (const room of this.rooms.values()) if (room.timer) clearTimeout(room.timer);
    this.rooms.clear();
  }

  private dispatch(event: LiveEvent): void {
    if (event.type === 'inbox') {
      // Addressed to users, whichever mine their console shows.
      const users = new Set(event.userIds);
      for (const room of this.rooms.values())
        for (const client of room.clients)
          if (client.userId !== undefined && users.has(client.userId)) this.send(client, inboxFrame);
      return;
    }
    const room = this.rooms.get(event.areaId);
    if (!room) return;
    switch (event.type) {
      case 'telemetry':
        for (const id of event.fboxIds) room.pendingFboxIds.add(id);
        this.scheduleTelemetry(room);
        return;
      case 'status':
        this.broadcast(room, { type: 'status', fboxId: event.fboxId, online: event.online });
        return;
      case 'command':
        this.broadcast(room, {
          type: 'command',
          commandId: event.commandId,
          status: event.status,
          minerId: event.minerId,
          tankId: event.tankId,
        });
        return;
      case 'alert':
        this.broadcast(room, { type: 'alert', alertId: event.alertId, level: event.level, open: event.open });
        return;
    }
  }

  private scheduleTelemetry(room: AreaRoom): void {
    if (room.timer) return;
    const wait = Math.max(0, room.lastTelemetryAt + this.coalesceMs - Date.now());
    room.timer = setTimeout(() => {
      room.timer = null;
      room.lastTelemetryAt = Date.now();
      const fboxIds = [...room.pendingFboxIds].sort((a, b) => a - b);
      room.pendingFboxIds.clear();
      if (fboxIds.length > 0) this.broadcast(room, { type: 'telemetry', fboxIds });
    }, wait);
    room.timer.unref();
  }

  private broadcast(room: AreaRoom, message: LiveMessage): void {
    const text = JSON.stringify(message);
    for (const client of room.clients) this.send(client, text);
  }

  private send(client: LiveClient, text: string): void {
    try {
      client.send(text);
    } catch {
      // A client that cannot take a message is closed by its heartbeat.
    }
  }
}
