import type { CommandStatus } from '@fbox/contracts';
import type { OutcomeStatus } from '../../components/CommandStatusTag';

export type { OutcomeStatus };

/** A device's outcome in a batch: its command (null when nothing was sent) and how far it got. */
export interface Outcome {
  /** What the command is for: a miner id in a bulk action, a control name for single commands. */
  key: number | string;
  commandId: string | null;
  status: OutcomeStatus;
  error?: string | null;
}

export interface OutcomeState {
  batchId: string | null;
  outcomes: Outcome[];
}

export type OutcomeAction =
  /** The batch call answered: one row per device, in the order it was asked for. */
  | { type: 'start'; batchId: string | null; outcomes: Outcome[] }
  /** A single command (a tank control, a meter reset): replaces the outcome with the same key. */
  | { type: 'add'; outcome: Outcome }
  /** A live `command` message or a read of `fbox.command/status` / `batch`. */
  | { type: 'status'; commandId: string; status: CommandStatus; error?: string | null }
  | { type: 'clear' };

const rank: Record<OutcomeStatus, number> = {
  pending: 0,
  sent: 1,
  acknowledged: 2,
  failed: 2,
  timed_out: 2,
  not_found: 2,
};

/** Terminal outcomes: nothing will change them any more. */
export const isSettled = (status: OutcomeStatus): boolean => rank[status] === 2;

export const initialOutcomes: OutcomeState = { batchId: null, outcomes: [] };

/**
 * Per-device outcomes of a bulk action. Updates only move forward (pending → sent → acknowledged /
 * failed / timed out): a late or repeated message about an earlier step never undoes a later one,
 * whichever of the socket and a read arrives first.
 */
export const outcomeReducer = (state: OutcomeState, action: OutcomeAction): OutcomeState => {
  switch (action.type) {
    case 'start':
      return { batchId: action.batchId, outcomes: action.outcomes };
    case 'add':
      return {
        ...state,
        outcomes: [...state.outcomes.filter((o) => o.key !== action.outcome.key), action.outcome],
      };
    case 'clear':
      return initialOutcomes;
    case 'status': {
      let changed = false;
      const outcomes = state.outcomes.map((outcome) => {
        if (outcome.commandId !== action.commandId) return outcome;
        if (rank[action.status] < rank[outcome.status] || isSettled(outcome.status)) return outcome;
        if (outcome.status === action.status && (action.error ?? null) === (outcome.error ?? null))
          return outcome;
        changed = true;
        return { ...outcome, status: action.status, error: action.error ?? outcome.error ?? null };
      });
      return changed ? { ...state, outcomes } : state;
    }
  }
};

/** How many outcomes are in each status, for the drawer's summary. */
export const countOutcomes = (outcomes: readonly Outcome[]): Record<OutcomeStatus, number> => {
  const counts: Record<OutcomeStatus, number> = {
    pending: 0,
    sent: 0,
    acknowledged: 0,
    failed: 0,
    timed_out: 0,
    not_found: 0,
  };
  for (const outcome of outcomes) counts[outcome.status] += 1;
  return counts;
};
