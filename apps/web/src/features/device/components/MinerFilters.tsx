import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import type { ListQueryState } from '../../../lib/use-list-query';
import { useFboxOptions } from '../api-fbox';
import { useMinerFilterOptions } from '../api-miner';
import { useTankOptions } from '../api-tank';
import { useModeLabels, useStatusOptions } from './labels';

/** The miner list filters of the issue: FBOX, tank, status, model, brand, pool, mode, fault, text. */
export const MinerFilters = ({ list }: { list: ListQueryState }) => {
  const { t } = useTranslation();
  const { filters } = list.query;
  const fboxes = useFboxOptions();
  const fboxId = filters.fbox_id ? Number(filters.fbox_id) : undefined;
  const tanks = useTankOptions(fboxId);
  const options = useMinerFilterOptions();
  const modes = useModeLabels();
  const statuses = useStatusOptions();
  const set = (name: string) => (value?: string | number) =>
    list.setFilters(
      name === 'fbox_id'
        ? { fbox_id: value ? String(value) : undefined, tank_id: undefined }
        : { [name]: value ? String(value) : undefined },
    );
  const strings = (values: string[] = []) => values.map((value) => ({ value, label: value }));
  const select = (
    name: string,
    label: string,
    choices: { value: string | number; label: string }[],
    width = 150,
  ) => (
    <Select
      key={name}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={label}
      aria-label={label}
      style={{ width }}
      value={filters[name] ? (name.endsWith('_id') ? Number(filters[name]) : filters[name]) : undefined}
      options={choices}
      onChange={set(name)}
      data-testid={`miner-filter-${name}`}
    />
  );
  return (
    <>
      <Input.Search
        allowClear
        defaultValue={filters.keyword}
        placeholder={t('device.miner.search')}
        aria-label={t('device.miner.search')}
        onSearch={(keyword) => list.setFilters({ keyword })}
        style={{ width: 240 }}
        data-testid="miner-search"
      />
      {select(
        'fbox_id',
        t('device.tank.fbox'),
        (fboxes.data ?? []).map((f) => ({ value: f.id, label: f.name })),
        170,
      )}
      {fboxId &&
        select(
          'tank_id',
          t('device.miner.tank'),
          (tanks.data ?? []).map((x) => ({ value: x.id, label: x.name })),
        )}
      {select(
        'status',
        t('device.miner.network'),
        statuses.map((s) => ({ value: s.value, label: s.label })),
        120,
      )}
      {select('model', t('device.miner.model'), strings(options.data?.models))}
      {select('brand', t('device.miner.brand'), strings(options.data?.brands), 130)}
      {select('pool', t('device.miner.pool'), strings(options.data?.pools), 170)}
      {select(
        'mode',
        t('device.miner.mode'),
        [
          { value: 'high', label: modes.high },
          { value: 'low', label: modes.low },
        ],
        120,
      )}
      {select(
        'fault',
        t('device.miner.fault'),
        [
          { value: 'any', label: t('device.miner.faultAny') },
          { value: 'none', label: t('device.miner.faultNone') },
          ...strings(options.data?.faults),
        ],
        140,
      )}
      {select('pool_hijacked', t('fboxConfig.miner.poolHijacked'), [
        { value: '1', label: t('fboxConfig.miner.poolHijacked') },
      ])}
    </>
  );
};
