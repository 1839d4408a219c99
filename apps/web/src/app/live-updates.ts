import type { LiveMessage } from '@fbox/contracts';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { alarmKeys } from '../features/alarm';
import { boardKeys } from '../features/board';
import { fboxKeys, minerKeys, tankKeys } from '../features/device';
import { homeKeys } from '../features/home';
import { messageKeys } from '../features/messages';
import { type LiveTarget, openLiveSocket } from '../lib/live-socket';

/**
 * The caches a live message makes stale. Only active queries refetch, so a list not on screen costs
 * nothing. History charts are left alone (they are read per range, not per sample), and command
 * outcomes follow the messages directly (useCommandOutcomes), not through reads.
 */
export const liveInvalidations = (message: LiveMessage): QueryKey[] => {
  switch (message.type) {
    case 'telemetry':
    case 'status': {
      const ids = message.type === 'telemetry' ? message.fboxIds : [message.fboxId];
      return [
        homeKeys.all,
        boardKeys.screens(),
        fboxKeys.lists(),
        ...ids.map((id) => fboxKeys.detail(id)),
        tankKeys.lists(),
        tankKeys.details(),
        minerKeys.lists(),
        minerKeys.details(),
      ];
    }
    case 'command':
      return [
        ...(message.minerId !== null ? [minerKeys.detail(message.minerId)] : []),
        ...(message.tankId !== null ? [tankKeys.detail(message.tankId)] : []),
      ];
    case 'alert':
      return [alarmKeys.all, boardKeys.screens()];
    case 'inbox':
      return [messageKeys.all];
    case 'hello':
      return [];
  }
};

/** Live messages can come in bursts (one per FBOX report): invalidations are gathered for this long. */
export const LIVE_COALESCE_MS = 1000;

/**
 * Invalidates the keys of many messages at once, each key once per window. A key whose read is still
 * in flight waits for the next window instead of cancelling it: were a read slower than the window
 * (a large mine, a busy server), each message would cancel the read the last one started, the list
 * would never arrive, and a form waiting for it after a save would never close. Waiting keeps the
 * message: the read it gets starts after it came.
 */
export const createLiveInvalidator = (queryClient: QueryClient, windowMs = LIVE_COALESCE_MS) => {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (pending.size > 0 && timer === undefined) timer = setTimeout(flush, windowMs);
  };
  const flush = () => {
    timer = undefined;
    for (const [hash, queryKey] of pending) {
      if (queryClient.isFetching({ queryKey }) > 0) continue;
      pending.delete(hash);
      void queryClient.invalidateQueries({ queryKey });
    }
    schedule();
  };
  return {
    push: (message: LiveMessage) => {
      for (const key of liveInvalidations(message)) pending.set(JSON.stringify(key), key);
      schedule();
    },
    stop: () => {
      clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
};

/**
 * One WebSocket to the selected mine's live feed while signed in (`/ws?area_id=N`, authenticated by
 * the Admin-Token cookie); messages mark the matching queries stale. Reconnects with backoff; while it
 * is down, live queries poll every 15 s instead.
 */
export const useLiveArea = (target: LiveTarget | undefined, queryClient: QueryClient): void => {
  // A kiosk target is a new object each render: the effect keys on what it names.
  const areaId = typeof target === 'number' ? target : undefined;
  const kiosk = typeof target === 'object' ? target.kiosk : undefined;
  useEffect(() => {
    const live = kiosk ? { kiosk } : areaId;
    if (!live) return;
    const invalidator = createLiveInvalidator(queryClient);
    const socket = openLiveSocket(live, invalidator.push);
    return () => {
      socket.close();
      invalidator.stop();
    };
  }, [areaId, kiosk, queryClient]);
};
