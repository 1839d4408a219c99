import type { CommandStatus } from '@fbox/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useReducer, useRef } from 'react';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { fallbackRefetchInterval, subscribeLive } from '../../lib/live-socket';
import { commandKeys } from './keys';
import { initialOutcomes, isSettled, outcomeReducer } from './outcome-reducer';

/** The server reads at most this many command ids per status call. */
const STATUS_BATCH = 500;

/**
 * Outcomes of commands this screen issued, moving pending → sent → acknowledged / failed / timed out
 * as live `command` messages arrive. While some are unsettled, their status is also read once and then
 * every 15 s when the socket is down, so a missed message never leaves a row pending for ever.
 */
export const useCommandOutcomes = () => {
  const [state, dispatch] = useReducer(outcomeReducer, initialOutcomes);

  useEffect(
    () =>
      subscribeLive((message) => {
        if (message.type === 'command')
          dispatch({ type: 'status', commandId: message.commandId, status: message.status });
      }),
    [],
  );

  const open = useMemo(
    () =>
      state.outcomes
        .filter((outcome) => outcome.commandId !== null && !isSettled(outcome.status))
        .map((outcome) => outcome.commandId as string)
        .slice(0, STATUS_BATCH),
    [state.outcomes],
  );

  // The key names the tracker and its batch, not the open ids: an ack shrinking the set must not
  // start a new read (10,000 acks would be 10,000 reads). The read takes the open ids of its time.
  const tracker = useId();
  const openRef = useRef(open);
  openRef.current = open;
  const status = useQuery({
    queryKey: commandKeys.status([tracker, state.batchId ?? String(state.outcomes.length)]),
    queryFn: () =>
      call('commandStatus', { ...areaScope(), ids: openRef.current.join(',') }, { silent: true }),
    enabled: open.length > 0,
    refetchInterval: fallbackRefetchInterval,
    staleTime: 0,
  });

  useEffect(() => {
    for (const command of status.data ?? [])
      dispatch({ type: 'status', commandId: command.id, status: command.status, error: command.error });
  }, [status.data]);

  return { state, dispatch };
};

/** Single commands keyed by the control that issued them (a meter reset, a tank switch). */
export const useTrackedCommands = () => {
  const { state, dispatch } = useCommandOutcomes();
  const track = useCallback(
    (key: string, commandId: string, status: CommandStatus) =>
      dispatch({ type: 'add', outcome: { key, commandId, status } }),
    [dispatch],
  );
  const statusOf = useCallback(
    (key: string) => state.outcomes.find((outcome) => outcome.key === key)?.status,
    [state.outcomes],
  );
  return { track, statusOf };
};
