import DatePicker from 'antd/es/date-picker';
import Select from 'antd/es/select';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { timeZoneStore } from '../../../lib/time';
import type { ListQueryState } from '../../../lib/use-list-query';
import { useAreaList } from '../../mines';
import { actionLabel, recordedActions } from '../actions';
import { useOplogUsers } from '../api';
import { type Day, dayOf, dayRange } from '../day-range';

const toDay = (d: Dayjs): Day => ({ year: d.year(), month: d.month() + 1, day: d.date() });
const fromDay = (d: Day): Dayjs => dayjs(new Date(d.year, d.month - 1, d.day));

/** Filters of the operation log: user, action, mine, outcome and a range of days. */
export const OplogFilters = ({ list }: { list: ListQueryState }) => {
  const { t } = useTranslation();
  const { filters } = list.query;
  const users = useOplogUsers();
  const mines = useAreaList();
  const zone = timeZoneStore.get();
  const set = (name: string) => (value?: string | number | null) =>
    list.setFilters({ [name]: value === undefined || value === null ? undefined : String(value) });
  const select = (
    name: string,
    label: string,
    options: { value: string | number; label: string }[],
    width = 170,
  ) => (
    <Select
      key={name}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={label}
      aria-label={label}
      style={{ width }}
      value={filters[name] ? (name.endsWith('_id') ? Number(filters[name]) : filters[name]) : undefined}
      options={options}
      onChange={set(name)}
      popupMatchSelectWidth={false}
      data-testid={`oplog-filter-${name}`}
    />
  );
  const range: [Dayjs, Dayjs] | null =
    filters.from && filters.to
      ? [fromDay(dayOf(Number(filters.from), zone)), fromDay(dayOf(Number(filters.to) - 1, zone))]
      : null;
  const onRange = (dates: [Dayjs | null, Dayjs | null] | null) => {
    const [first, last] = dates ?? [null, null];
    if (!first || !last) {
      list.setFilters({ from: undefined, to: undefined });
      return;
    }
    const { from, to } = dayRange(toDay(first), toDay(last), zone);
    list.setFilters({ from: String(from), to: String(to) });
  };
  return (
    <>
      {select(
        'user_id',
        t('oplog.filter.user'),
        (users.data ?? []).flatMap((u) => (u.id === null ? [] : [{ value: u.id, label: u.username }])),
      )}
      {select(
        'action',
        t('oplog.filter.action'),
        recordedActions.map((action) => ({ value: action, label: actionLabel(t, action) })),
        200,
      )}
      {select(
        'mine_id',
        t('oplog.filter.mine'),
        (mines.data ?? []).map((m) => ({ value: m.id, label: m.area_name })),
      )}
      {select(
        'outcome',
        t('oplog.filter.outcome'),
        [
          { value: 'success', label: t('oplog.outcome.success') },
          { value: 'failed', label: t('oplog.outcome.failed') },
        ],
        120,
      )}
      <DatePicker.RangePicker
        value={range}
        onChange={onRange}
        aria-label={t('oplog.filter.time')}
        placeholder={[t('field.from'), t('field.to')]}
        data-testid="oplog-filter-time"
      />
    </>
  );
};
