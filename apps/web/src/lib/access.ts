import { routes } from 'virtual:endpoint-routes';
import { allows, type EndpointName, type RuleList } from '@fbox/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { call } from './api';

/** Query keys of the caller's access rules. */
export const accessKeys = {
  all: ['access'] as const,
  rules: () => [...accessKeys.all, 'rules'] as const,
};

/** The caller's role and rules (`fbox.user/getrule`), read once per session with the user info. */
export const ruleListQuery = () =>
  queryOptions({
    queryKey: accessKeys.rules(),
    queryFn: () => call('ruleList', {}, { silent: true }),
    staleTime: 5 * 60_000,
  });

export const useRules = () => useQuery(ruleListQuery());

/**
 * Whether a caller with this rule list may call an endpoint, by the endpoint's permission in the
 * contract table (its routes), the same check the server makes. Nothing is allowed before the rules are known.
 */
export const canCall = (rules: RuleList | undefined, name: EndpointName): boolean =>
  rules !== undefined && allows({ role: rules.role, rules: rules.rules }, routes[name].permission);

/**
 * `can('fboxEdit')`: whether the signed-in user may call that endpoint, so a page shows only the
 * actions the server would accept (operators: the device actions their rules allow; administrators:
 * management within their mines; masters: everything).
 */
export const useCan = (): ((name: EndpointName) => boolean) => {
  const { data } = useRules();
  return useCallback((name: EndpointName) => canCall(data, name), [data]);
};
