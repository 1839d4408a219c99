import { describe, expect, it } from 'vitest';
import { LiveEvents } from '../../realtime/live-events.js';
import { LiveHub } from '../../realtime/live-hub.js';

describe('inbox live events', () => {
  it('reach only the browsers of the users they name, whichever mine those browsers watch', () => {
    const live = new LiveEvents();
    const hub = new LiveHub(live);
    const got: Record<string, string[]> = { a1: [], a2: [], b1: [], anon: [] };
    const client = (name: string, userId?: number) => ({
      ...(userId !== undefined && { userId }),
      send: (text: string) => got[name]!.push(text),
    });
    hub.join(1, client('a1', 7));
    hub.join(2, client('a2', 7));
    hub.join(1, client('b1', 8));
    hub.join(1, client('anon'));
    live.publish({ type: 'inbox', areaId: 1, userIds: [7] });
    expect(got).toEqual({ a1: ['{"type":"inbox"}'], a2: ['{"type":"inbox"}'], b1: [], anon: [] });
    hub.close();
  });
});
