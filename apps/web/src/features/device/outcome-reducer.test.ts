import { describe, expect, it } from 'vitest';
import { countOutcomes, initialOutcomes, type OutcomeState, outcomeReducer } from './outcome-reducer';

const started: OutcomeState = outcomeReducer(initialOutcomes, {
  type: 'start',
  batchId: 'b1',
  outcomes: [
    { key: 1, commandId: 'c1', status: 'pending' },
    { key: 2, commandId: 'c2', status: 'pending' },
    { key: 3, commandId: null, status: 'not_found' },
  ],
});

describe('bulk outcome reducer', () => {
  it('moves a miner forward as its command is sent and acknowledged', () => {
    const sent = outcomeReducer(started, { type: 'status', commandId: 'c1', status: 'sent' });
    const acked = outcomeReducer(sent, { type: 'status', commandId: 'c1', status: 'acknowledged' });
    expect(acked.outcomes.map((o) => o.status)).toEqual(['acknowledged', 'pending', 'not_found']);
  });

  it('never goes back: a late "sent" after the ack is ignored', () => {
    const acked = outcomeReducer(started, { type: 'status', commandId: 'c2', status: 'acknowledged' });
    const late = outcomeReducer(acked, { type: 'status', commandId: 'c2', status: 'sent' });
    expect(late).toBe(acked);
  });

  it('keeps the first final outcome and its error', () => {
    const failed = outcomeReducer(started, {
      type: 'status',
      commandId: 'c1',
      status: 'failed',
      error: 'busy',
    });
    const timedOut = outcomeReducer(failed, { type: 'status', commandId: 'c1', status: 'timed_out' });
    expect(timedOut.outcomes[0]).toMatchObject({ status: 'failed', error: 'busy' });
  });

  it("replaces a control's outcome when it is used again", () => {
    const first = outcomeReducer(initialOutcomes, {
      type: 'add',
      outcome: { key: 'mode', commandId: 'm1', status: 'failed' },
    });
    const again = outcomeReducer(first, {
      type: 'add',
      outcome: { key: 'mode', commandId: 'm2', status: 'pending' },
    });
    expect(again.outcomes).toEqual([{ key: 'mode', commandId: 'm2', status: 'pending' }]);
  });

  it('ignores commands of other batches and counts by status', () => {
    const other = outcomeReducer(started, { type: 'status', commandId: 'zzz', status: 'acknowledged' });
    expect(other).toBe(started);
    expect(countOutcomes(started.outcomes)).toMatchObject({ pending: 2, not_found: 1, acknowledged: 0 });
  });
});
