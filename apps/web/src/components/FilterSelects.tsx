import Select from 'antd/es/select';
import type { ListQueryState } from '../lib/use-list-query';

/** One choice of a filter bar. */
export interface FilterChoice {
  /** The filter it sets; a name ending in `_id` holds a number. */
  name: string;
  /** Also its placeholder: a filter bar has no field labels. */
  label: string;
  options: { value: string | number; label: string }[];
  width?: number;
  /** Filters that depend on this one, cleared when it changes (a tank belongs to its FBOX). */
  clears?: string[];
}

interface Props {
  list: ListQueryState;
  filters: FilterChoice[];
  /** Each select's test id is this and its filter name: `miner-filter-status`. */
  testIdPrefix: string;
  /** false: a choice's popup may grow wider than the select, for long option labels. */
  popupMatchSelectWidth?: boolean;
}

/** The choices of a list's filter bar, each searchable and clearable and kept in the list query. */
export const FilterSelects = ({ list, filters, testIdPrefix, popupMatchSelectWidth }: Props) => {
  const onChange = (choice: FilterChoice) => (value?: string | number | null) =>
    list.setFilters({
      ...Object.fromEntries((choice.clears ?? []).map((dependent) => [dependent, undefined])),
      [choice.name]: value === undefined || value === null || value === '' ? undefined : String(value),
    });
  const selected = (name: string) => {
    const current = list.query.filters[name];
    return current ? (name.endsWith('_id') ? Number(current) : current) : undefined;
  };
  return filters.map((choice) => (
    <Select
      key={choice.name}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={choice.label}
      aria-label={choice.label}
      style={{ width: choice.width ?? 150 }}
      value={selected(choice.name)}
      options={choice.options}
      onChange={onChange(choice)}
      popupMatchSelectWidth={popupMatchSelectWidth}
      data-testid={`${testIdPrefix}-${choice.name}`}
    />
  ));
};
