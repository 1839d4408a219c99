import type { GroupType, MinerLogScope } from '@fbox/contracts';
import { groupTypes } from '@fbox/contracts';
import Select from 'antd/es/select';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFboxOptions } from '../../device';
import { useGroupChoices, useMinerSearch, useTankChoices } from '../api';

/** A miner as the picker holds it: its id and how it is shown. */
export interface PickedMiner {
  value: number;
  label: string;
}

/** The ids of a pick, whatever select made it (the miner picker keeps labels with its ids). */
export const idsOf = (picked: readonly (number | PickedMiner)[] | undefined): number[] =>
  (picked ?? []).map((p) => (typeof p === 'number' ? p : p.value));

interface SelectProps<V> {
  value?: V[];
  onChange?: (value: V[]) => void;
  id?: string;
}

const groupTypeKeys: Record<
  GroupType,
  'task.groupType.minerReboot' | 'task.groupType.pduReboot' | 'task.groupType.tempMode'
> = {
  miner_reboot: 'task.groupType.minerReboot',
  pdu_reboot: 'task.groupType.pduReboot',
  temp_mode: 'task.groupType.tempMode',
};

const common = {
  mode: 'multiple',
  allowClear: true,
  style: { width: '100%' },
  maxTagCount: 'responsive',
} as const;

/** Several FBOXes of the mine. */
const FboxSelect = ({ value, onChange, id }: SelectProps<number>) => {
  const { t } = useTranslation();
  const fboxes = useFboxOptions();
  return (
    <Select<number[]>
      {...common}
      id={id}
      value={value}
      onChange={onChange}
      showSearch={{ optionFilterProp: 'label' }}
      loading={fboxes.isPending}
      placeholder={t('minerLogs.form.fboxPlaceholder')}
      options={(fboxes.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
      data-testid="miner-logs-ids-fbox"
    />
  );
};

/** Several tanks of the mine, under their FBOX. */
const TankSelect = ({ value, onChange, id }: SelectProps<number>) => {
  const { t } = useTranslation();
  const tanks = useTankChoices(true);
  const byFbox = new Map<string, { value: number; label: string }[]>();
  for (const tank of tanks.data?.items ?? []) {
    const list = byFbox.get(tank.fbox_name) ?? [];
    list.push({ value: tank.id, label: tank.name });
    byFbox.set(tank.fbox_name, list);
  }
  return (
    <Select<number[]>
      {...common}
      id={id}
      value={value}
      onChange={onChange}
      showSearch={{ optionFilterProp: 'label' }}
      loading={tanks.isPending}
      placeholder={t('minerLogs.form.tankPlaceholder')}
      notFoundContent={tanks.isPending ? undefined : t('minerLogs.form.noTanks')}
      options={[...byFbox].map(([fbox, options]) => ({ label: fbox, title: fbox, options }))}
      data-testid="miner-logs-ids-tank"
    />
  );
};

/** Several miner groups of the mine, of any type, under their type. */
const GroupSelect = ({ value, onChange, id }: SelectProps<number>) => {
  const { t } = useTranslation();
  const groups = useGroupChoices(true);
  const pending = groups.some((g) => g.isPending);
  const options = groupTypes.flatMap((type, i) => {
    const items = groups[i]?.data?.items ?? [];
    if (items.length === 0) return [];
    const label = t(groupTypeKeys[type]);
    return [
      {
        label,
        title: label,
        options: items.map((g) => ({
          value: g.id,
          label: t('minerLogs.form.groupOption', { name: g.name, count: g.miner_count }),
        })),
      },
    ];
  });
  return (
    <Select<number[]>
      {...common}
      id={id}
      value={value}
      onChange={onChange}
      showSearch={{ optionFilterProp: 'label' }}
      loading={pending}
      placeholder={t('minerLogs.form.groupPlaceholder')}
      notFoundContent={pending ? undefined : t('minerLogs.form.noGroups')}
      options={options}
      data-testid="miner-logs-ids-group"
    />
  );
};

/** Chosen miners, found by SN, worker or IP on the server as the user types. */
const MinerPicker = ({ value, onChange, id }: SelectProps<PickedMiner>) => {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const miners = useMinerSearch(keyword, true);
  const onSearch = (text: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setKeyword(text.trim()), 300);
  };
  return (
    <Select<PickedMiner[]>
      {...common}
      id={id}
      labelInValue
      value={value}
      onChange={(next) => onChange?.(next.map(({ value: v, label }) => ({ value: v, label: String(label) })))}
      showSearch={{ filterOption: false, onSearch }}
      loading={miners.isFetching}
      placeholder={t('minerLogs.form.minerPlaceholder')}
      notFoundContent={miners.isFetching ? undefined : t('minerLogs.form.noMiners')}
      options={(miners.data?.items ?? []).map((m) => ({
        value: m.id,
        label: t('minerLogs.form.minerOption', {
          name: m.worker || m.ip || m.sn,
          sn: m.sn,
          fbox: m.fbox_name,
        }),
      }))}
      data-testid="miner-logs-ids-miners"
    />
  );
};

/** The select of what a scope names (FBOXes, tanks, groups or miners). */
export const ScopeIdsSelect = ({
  scope,
  ...props
}: SelectProps<number | PickedMiner> & { scope: Exclude<MinerLogScope, 'filter'> }) => {
  if (scope === 'miners') return <MinerPicker {...(props as SelectProps<PickedMiner>)} />;
  const plain = props as SelectProps<number>;
  if (scope === 'tank') return <TankSelect {...plain} />;
  if (scope === 'group') return <GroupSelect {...plain} />;
  return <FboxSelect {...plain} />;
};
