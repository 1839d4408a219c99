import DatePicker from 'antd/es/date-picker';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FilterSelects } from '../../../components/FilterSelects';
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
  const outcomes = [
    { value: 'success', label: t('oplog.outcome.success') },
    { value: 'failed', label: t('oplog.outcome.failed') },
  ];
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
      <FilterSelects
        list={list}
        testIdPrefix="oplog-filter"
        popupMatchSelectWidth={false}
        filters={[
          {
            name: 'user_id',
            label: t('oplog.filter.user'),
            options: (users.data ?? []).flatMap((u) =>
              u.id === null ? [] : [{ value: u.id, label: u.username }],
            ),
            width: 170,
          },
          {
            name: 'action',
            label: t('oplog.filter.action'),
            options: recordedActions.map((action) => ({ value: action, label: actionLabel(t, action) })),
            width: 200,
          },
          {
            name: 'mine_id',
            label: t('oplog.filter.mine'),
            options: (mines.data ?? []).map((m) => ({ value: m.id, label: m.area_name })),
            width: 170,
          },
          { name: 'outcome', label: t('oplog.filter.outcome'), options: outcomes, width: 120 },
        ]}
      />
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
