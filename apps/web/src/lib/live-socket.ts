import { type LiveMessage, LiveMessageSchema } from '@fbox/contracts';
import { createStore } from './store';

export type LiveState = 'connecting' | 'open' | 'down';

/** Whether live updates arrive; queries poll (slowly) only while it is `down`. */
export const liveStateStore = createStore<LiveState>('down');

type Listener = (message: LiveMessage) => void;
const listeners = new Set<Listener>();

/** Every live message, for parts that follow commands as they happen (the bulk-outcome drawer). */
export const subscribeLive = (listener: Listener): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Hands a message to the subscribers (the socket does; tests do too). */
export const emitLive = (message: LiveMessage): void => {
  for (const listener of listeners) listener(message);
};

/** Reconnect delays: 1 s, 2 s, 4 s … capped at 30 s; back to 1 s once a connection opened. */
export const backoffMs = (attempt: number): number => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));

/** Whose live feed: a mine's (the signed-in user's session), or a wall TV's board by its kiosk link. */
export type LiveTarget = number | { kiosk: string };

/**
 * `ws(s)://<this host>/ws?area_id=N`: same origin, so the Admin-Token cookie authenticates it; or
 * `/ws?kiosk=<token>` for a board shown by its kiosk link (no session).
 */
export const liveUrl = (
  target: LiveTarget,
  location: Pick<Location, 'protocol' | 'host'> = window.location,
) => {
  const query =
    typeof target === 'number' ? `area_id=${target}` : `kiosk=${encodeURIComponent(target.kiosk)}`;
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?${query}`;
};

/** Parses a pushed frame; anything that is not a known live message is ignored. */
export const parseLiveFrame = (data: unknown): LiveMessage | null => {
  if (typeof data !== 'string') return null;
  try {
    const parsed = LiveMessageSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/**
 * Keeps one WebSocket open to a mine's live feed, reconnecting with backoff until `close()` is called.
 * Messages go to `onMessage` and to the `subscribeLive` listeners.
 */
export const openLiveSocket = (target: LiveTarget, onMessage: Listener): { close: () => void } => {
  let socket: WebSocket | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const connect = () => {
    if (closed) return;
    liveStateStore.set('connecting');
    socket = new WebSocket(liveUrl(target));
    socket.onopen = () => {
      attempt = 0;
      liveStateStore.set('open');
    };
    socket.onmessage = (event) => {
      const message = parseLiveFrame(event.data);
      if (!message) return;
      onMessage(message);
      emitLive(message);
    };
    socket.onclose = () => {
      socket = null;
      if (closed) return;
      liveStateStore.set('down');
      timer = setTimeout(connect, backoffMs(attempt));
      attempt += 1;
    };
  };

  connect();
  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      socket?.close();
      socket = null;
      liveStateStore.set('down');
    },
  };
};

/** Polling fallback: every 15 s while the socket is down, never while it is open. */
export const FALLBACK_POLL_MS = 15_000;
export const fallbackRefetchInterval = (): number | false =>
  liveStateStore.get() === 'open' ? false : FALLBACK_POLL_MS;
