import type { CommandStatus, EndpointBody } from '@fbox/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { fboxConfigKeys } from './keys';

const quiet = { silent: true } as const;
const form = { successToast: true, quietValidation: true } as const;

/** Until settled, a command's status is read again this often (ms). */
const COMMAND_POLL_MS = 1500;

export const isSettled = (status: CommandStatus | undefined): boolean =>
  status === 'acknowledged' || status === 'failed' || status === 'timed_out';

/** The FBOX defaults of the selected mine (built-ins when it has none). */
export const useFboxDefaults = () => {
  const scope = areaScope();
  return useQuery({
    queryKey: fboxConfigKeys.defaults(scope.area_id),
    queryFn: () => call('fboxDefaultsList', scope, quiet),
  });
};

export const useSaveFboxDefaults = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<'fboxDefaultsSave'>, 'area_id'>) =>
      call('fboxDefaultsSave', { ...areaScope(), ...body }, form),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fboxConfigKeys.all }),
  });
};

export const useRemoveFboxDefaults = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('fboxDefaultsRemove', areaScope(), { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fboxConfigKeys.all }),
  });
};

/** One FBOX's effective configuration, with sources and its last `fbox.config` command. */
export const useFboxConfig = (id: number) => {
  const scope = areaScope();
  return useQuery({
    queryKey: fboxConfigKeys.detail(scope.area_id, id),
    queryFn: () => call('fboxConfigDetail', { ...scope, id }, quiet),
    enabled: id > 0,
  });
};

export const useSaveFboxConfig = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<'fboxConfigSave'>, 'area_id' | 'id'>) =>
      call('fboxConfigSave', { ...areaScope(), id, ...body }, form),
    onSuccess: (saved) => {
      queryClient.setQueryData(fboxConfigKeys.detail(saved.config.area_id, id), saved.config);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['fbox'] }),
        queryClient.invalidateQueries({ queryKey: fboxConfigKeys.command(saved.command_id) }),
      ]);
    },
  });
};

/** A command's status (`commandStatus`), read again until the gateway acknowledged, refused or timed out. */
export const useCommandProgress = (commandId: string | null | undefined) =>
  useQuery({
    queryKey: fboxConfigKeys.command(commandId ?? ''),
    queryFn: async () => {
      const [command] = await call('commandStatus', { ...areaScope(), ids: commandId ?? '' }, quiet);
      return command ?? null;
    },
    enabled: Boolean(commandId),
    refetchInterval: (query) => (isSettled(query.state.data?.status) ? false : COMMAND_POLL_MS),
    staleTime: 0,
  });

/** The overclock policy last sent to the account's miners, with its progress. */
export const useOverclockPolicy = () =>
  useQuery({
    queryKey: fboxConfigKeys.overclock(),
    queryFn: () => call('overclockPolicy', {}, quiet),
    refetchInterval: (query) => {
      const policy = query.state.data;
      if (!policy?.batch_id) return false;
      const open = policy.counts.pending + policy.counts.sent;
      return open > 0 ? COMMAND_POLL_MS * 2 : false;
    },
  });
