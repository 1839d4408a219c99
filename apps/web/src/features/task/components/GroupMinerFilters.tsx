import Input from 'antd/es/input';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
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
  const set = (name: string) => (value?: string | number) =>
    list.setFilters(
      name === 'fbox_id'
        ? { fbox_id: value ? String(value) : undefined, tank_id: undefined }
        : { [name]: value ? String(value) : undefined },
    );
  const select = (name: string, label: string, choices: { value: string | number; label: string }[]) => (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={label}
      aria-label={label}
      style={{ width: 160 }}
      value={filters[name] ? (name.endsWith('_id') ? Number(filters[name]) : filters[name]) : undefined}
      options={choices}
      onChange={set(name)}
      data-testid={`group-filter-${name}`}
    />
  );
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
        <Input.Search
          allowClear
          defaultValue={filters.keyword}
          placeholder={t('task.groupEdit.search')}
          aria-label={t('task.groupEdit.search')}
          onSearch={(keyword) => list.setFilters({ keyword })}
          style={{ width: 220 }}
          data-testid="group-filter-keyword"
        />
      </span>
      {select(
        'fbox_id',
        t('field.fbox_id'),
        (fboxes.data ?? []).map((fbox) => ({ value: fbox.id, label: fbox.name })),
      )}
      {fboxId !== undefined &&
        select(
          'tank_id',
          t('field.tank_id'),
          (tanks.data ?? []).map((tank) => ({ value: tank.id, label: tank.name })),
        )}
      {select(
        'model',
        t('field.model'),
        (options.data?.models ?? []).map((model) => ({ value: model, label: model })),
      )}
      {select('status', t('field.status'), [
        { value: 'online', label: t('common.status.online') },
        { value: 'offline', label: t('common.status.offline') },
      ])}
    </>
  );
};
