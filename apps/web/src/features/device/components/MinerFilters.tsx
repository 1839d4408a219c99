import { useTranslation } from 'react-i18next';
import { FilterSelects } from '../../../components/FilterSelects';
import { KeywordSearch } from '../../../components/KeywordSearch';
import type { ListQueryState } from '../../../lib/use-list-query';
import { useFboxOptions } from '../api-fbox';
import { useMinerFilterOptions } from '../api-miner';
import { useTankOptions } from '../api-tank';
import { useFaultText, useModeLabels, useStatusOptions } from './labels';

const strings = (values: string[] = []) => values.map((value) => ({ value, label: value }));
/** Under-hashing thresholds offered, percent of theoretical. */
const underOptions = [95, 90, 80, 50] as const;

/** The miner list filters of the issue: FBOX, tank, status, model, brand, pool, mode, fault, text. */
export const MinerFilters = ({ list }: { list: ListQueryState }) => {
  const { t } = useTranslation();
  const fboxes = useFboxOptions();
  const fboxId = list.query.filters.fbox_id ? Number(list.query.filters.fbox_id) : undefined;
  const tanks = useTankOptions(fboxId);
  const options = useMinerFilterOptions();
  const modes = useModeLabels();
  const statuses = useStatusOptions();
  const faultText = useFaultText();
  const fbox = {
    name: 'fbox_id',
    label: t('device.tank.fbox'),
    options: (fboxes.data ?? []).map((f) => ({ value: f.id, label: f.name })),
    width: 170,
    clears: ['tank_id'],
  };
  // Only within one FBOX: the tank list is that FBOX's.
  const tank = {
    name: 'tank_id',
    label: t('device.miner.tank'),
    options: (tanks.data ?? []).map((x) => ({ value: x.id, label: x.name })),
  };
  const mode = [
    { value: 'high', label: modes.high },
    { value: 'low', label: modes.low },
  ];
  const fault = [
    { value: 'any', label: t('device.miner.faultAny') },
    { value: 'none', label: t('device.miner.faultNone') },
    ...(options.data?.faults ?? []).map((value) => ({ value, label: faultText(value) })),
  ];
  const hijacked = t('fboxConfig.miner.poolHijacked');
  return (
    <>
      <KeywordSearch list={list} placeholder={t('device.miner.search')} testId="miner-search" />
      <FilterSelects
        list={list}
        testIdPrefix="miner-filter"
        filters={[
          fbox,
          ...(fboxId ? [tank] : []),
          {
            name: 'status',
            label: t('device.miner.network'),
            options: statuses.map(({ value, label }) => ({ value, label })),
            width: 120,
          },
          { name: 'model', label: t('device.miner.model'), options: strings(options.data?.models) },
          {
            name: 'brand',
            label: t('device.miner.brand'),
            options: strings(options.data?.brands),
            width: 130,
          },
          { name: 'pool', label: t('device.miner.pool'), options: strings(options.data?.pools), width: 170 },
          { name: 'mode', label: t('device.miner.mode'), options: mode, width: 120 },
          { name: 'fault', label: t('device.miner.fault'), options: fault, width: 140 },
          {
            name: 'under_pct',
            label: t('device.miner.hashrateFilter'),
            options: underOptions.map((pct) => ({
              value: String(pct),
              label: t('device.miner.underPct', { pct }),
            })),
            width: 210,
          },
          { name: 'pool_hijacked', label: hijacked, options: [{ value: '1', label: hijacked }] },
        ]}
      />
    </>
  );
};
