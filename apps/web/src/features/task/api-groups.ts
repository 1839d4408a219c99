import { Code, type EndpointBody, type GroupType, type MinerGroup } from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { type ListQuery, toRequestParams } from '../../lib/list-query';
import { fboxKeys, minerKeys, tankKeys } from '../device';
import { groupKeys, taskKeys } from './keys';

const quiet = { silent: true } as const;
const form = { successToast: true, quietValidation: true } as const;

/** A page of the groups of one type (the groups page). */
export const useGroupList = (type: GroupType, query: ListQuery) => {
  const params = { type, ...toRequestParams(query) };
  return useQuery({
    queryKey: groupKeys.list(params),
    queryFn: () => call('minerGroupList', { ...areaScope(), ...params } as never, quiet),
    placeholderData: keepPreviousData,
  });
};

/** Every group of a type, for the task form's group select (the server's largest page). */
export const useGroupOptions = (type: GroupType) =>
  useQuery({
    queryKey: groupKeys.list({ type, page: 1, limit: 500 }),
    queryFn: () => call('minerGroupList', { ...areaScope(), type, page: 1, limit: 500 }, quiet),
  });

/** A group of this type in the mine, or null when there is none (unknown id, another type). */
const findGroup = async (type: GroupType, id: number): Promise<MinerGroup | null> => {
  try {
    const group = await call('minerGroupDetail', { ...areaScope(), id }, quiet);
    return group.type === type ? group : null;
  } catch (error) {
    if (error instanceof ApiError && error.code === Code.NOT_FOUND) return null;
    throw error;
  }
};

/** One group (name, counts) of the group editor; null when the mine has no such group. */
export const useGroup = (type: GroupType | undefined, id: number) =>
  useQuery({
    queryKey: groupKeys.one(id),
    queryFn: () => findGroup(type as GroupType, id),
    enabled: id > 0 && type !== undefined,
  });

/** The miners a group editor picks from, with their membership. */
export const useGroupMiners = (groupId: number, query: ListQuery) => {
  const params = { group_id: groupId, ...toRequestParams(query) };
  return useQuery({
    queryKey: groupKeys.miners(params),
    queryFn: () => call('minerGroupMinerList', { ...areaScope(), ...params } as never, quiet),
    placeholderData: keepPreviousData,
    enabled: groupId > 0,
  });
};

/** How many miners of the mine match a filter, in or out of the group (for a confirmation). */
export const countGroupMiners = async (
  groupId: number,
  member: 'in' | 'out',
  filter: Record<string, string | number>,
): Promise<number> =>
  (
    await call('minerGroupMinerList', {
      ...areaScope(),
      group_id: groupId,
      member,
      ...filter,
      page: 1,
      limit: 1,
    })
  ).total;

const useInvalidateGroups = () => {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: groupKeys.all }),
      queryClient.invalidateQueries({ queryKey: taskKeys.all }),
    ]);
};

type GroupWrite = 'minerGroupAdd' | 'minerGroupEdit' | 'minerGroupDelete';

const useGroupMutation = <N extends GroupWrite>(name: N) => {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<N>, 'area_id'>) =>
      call(
        name,
        { ...areaScope(), ...body } as never,
        name === 'minerGroupDelete' ? { successToast: true } : form,
      ),
    onSuccess: invalidate,
  });
};

export const useCreateGroup = () => useGroupMutation('minerGroupAdd');
export const useRenameGroup = () => useGroupMutation('minerGroupEdit');
export const useDeleteGroup = () => useGroupMutation('minerGroupDelete');

/** Adds or removes miners: the listed ones, or every miner matching a filter (`all_matching`). */
export const useGroupMembers = () => {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({
      op,
      ...body
    }: { op: 'add' | 'remove' } & Omit<EndpointBody<'minerGroupAddMiner'>, 'area_id'>) =>
      call(
        op === 'add' ? 'minerGroupAddMiner' : 'minerGroupRemoveMiner',
        { ...areaScope(), ...body },
        {
          successToast: true,
        },
      ),
    onSuccess: invalidate,
  });
};

/* The picker's filter choices: the device feature's calls, under its query keys (shared cache). */

export const useFboxChoices = () =>
  useQuery({
    queryKey: fboxKeys.options(),
    queryFn: () => call('fboxOptions', areaScope(), quiet),
    staleTime: 60_000,
  });

export const useTankChoices = (fboxId: number | undefined) =>
  useQuery({
    queryKey: tankKeys.options(fboxId ?? 0),
    queryFn: () => call('tankOptions', { ...areaScope(), fbox_id: fboxId as number }, quiet),
    enabled: fboxId !== undefined,
    staleTime: 60_000,
  });

export const useMinerChoices = () =>
  useQuery({
    queryKey: minerKeys.filterOptions(),
    queryFn: () => call('minerFilterOptions', areaScope(), quiet),
    staleTime: 60_000,
  });
