import Input from 'antd/es/input';
import type { ListQueryState } from '../lib/use-list-query';

/** A list's free-text search: sets the `keyword` filter on Enter or the search button. */
export const KeywordSearch = ({
  list,
  placeholder,
  testId,
  width = 240,
}: {
  list: ListQueryState;
  /** Also its accessible name: says what the text is matched against. */
  placeholder: string;
  testId?: string;
  width?: number;
}) => (
  <Input.Search
    allowClear
    defaultValue={list.query.filters.keyword}
    placeholder={placeholder}
    aria-label={placeholder}
    onSearch={(keyword) => list.setFilters({ keyword })}
    style={{ width }}
    data-testid={testId}
  />
);
