import Segmented from 'antd/es/segmented';
import { useTranslation } from 'react-i18next';
import { type FilterChoice, FilterSelects } from '../../../components/FilterSelects';
import { KeywordSearch } from '../../../components/KeywordSearch';
import type { ListQueryState } from '../../../lib/use-list-query';
import { useFboxChoices, useMinerChoices, useTankChoices } from '../api-groups';

export const groupMinerFilterKeys = ['member', 'fbox_id', 'tank_id', 'model', 'status', 'keyword'] as const;

/** The picker's filter as the contract's `filter` of "all matching" (membership aside). */
export const matchingFilter = (filters: Record<string, string | undefined>) => ({
  ...(filters.fbox_id ? { fbox_id: Number(filters.fbox_id) } : {}),
  ...(filters.tank_id ? { tank_id: Number(filters.tank_id) } : {}),
  ...(filters.model ? { model: filters.model } : {}),
  ...(filters.status === 'online' || filters.status === 'offline'
    ? { status: filters.status as 'online' | 'offline' }
    : {}),
  ...(filters.keyword ? { keyword: filters.keyword } : {}),
});

/** Membership, FBOX, tank, model, status and text filters of the group editor's miner picker. */
export const GroupMinerFilters = ({ list }: { list: ListQueryState }) => {
  const { t } = useTranslation();
  const { filters } = list.query;
  const fboxId = filters.fbox_id ? Number(filters.fbox_id) : undefined;
  const fboxes = useFboxChoices();
  const tanks = useTankChoices(fboxId);
  const options = useMinerChoices();
  // Only within one FBOX: the tank list is that FBOX's.
  const tank = {
    name: 'tank_id',
    label: t('field.tank_id'),
    options: (tanks.data ?? []).map((x) => ({ value: x.id, label: x.name })),
  };
  const choices: FilterChoice[] = [
    {
      name: 'fbox_id',
      label: t('field.fbox_id'),
      options: (fboxes.data ?? []).map((fbox) => ({ value: fbox.id, label: fbox.name })),
      clears: ['tank_id'],
    },
    ...(fboxId === undefined ? [] : [tank]),
    {
      name: 'model',
      label: t('field.model'),
      options: (options.data?.models ?? []).map((model) => ({ value: model, label: model })),
    },
    {
      name: 'status',
      label: t('field.status'),
      options: [
        { value: 'online', label: t('common.status.online') },
        { value: 'offline', label: t('common.status.offline') },
      ],
    },
  ];
  return (
    <>
      <Segmented
        value={filters.member ?? 'all'}
        onChange={(member) => list.setFilters({ member: member === 'all' ? undefined : member })}
        options={[
          { value: 'all', label: t('task.groupEdit.memberAll') },
          { value: 'in', label: t('task.groupEdit.memberIn') },
          { value: 'out', label: t('task.groupEdit.memberOut') },
        ]}
        data-testid="group-filter-member"
      />
      <span data-testid="group-miners-search">
        <KeywordSearch
          list={list}
          placeholder={t('task.groupEdit.search')}
          testId="group-filter-keyword"
          width={220}
        />
      </span>
      <FilterSelects
        list={list}
        testIdPrefix="group-filter"
        filters={choices.map((choice) => ({ ...choice, width: 160 }))}
      />
    </>
  );
};
