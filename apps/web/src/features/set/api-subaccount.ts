import type { SubAccountCreateBody, SubAccountEditBody } from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { type ListQuery, toRequestParams } from '../../lib/list-query';

/** Query keys of the sub-account page. */
export const subAccountKeys = {
  all: ['subAccount'] as const,
  lists: () => [...subAccountKeys.all, 'list'] as const,
  list: (params: object) => [...subAccountKeys.lists(), params] as const,
};

/** One page of the master's sub-accounts (server-paged, filtered and sorted). */
export const useSubAccountList = (query: ListQuery) => {
  const params = toRequestParams(query);
  return useQuery({
    queryKey: subAccountKeys.list(params),
    queryFn: () => call('subAccountList', params, { silent: true }),
    placeholderData: keepPreviousData,
  });
};

/** -2 answers stay on the form; other failures are toasts. */
const form = { successToast: true, quietValidation: true } as const;

const useSubAccountMutation = <B>(send: (body: B) => Promise<unknown>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subAccountKeys.all }),
  });
};

export const useCreateSubAccount = () =>
  useSubAccountMutation((body: SubAccountCreateBody) => call('subAccountCreate', body, form));

export const useEditSubAccount = () =>
  useSubAccountMutation((body: SubAccountEditBody) => call('subAccountEdit', body, form));

export const useDeleteSubAccount = () =>
  useSubAccountMutation(({ id }: { id: number }) => call('subAccountDelete', { id }, { successToast: true }));
