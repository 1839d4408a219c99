import { ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Empty from 'antd/es/empty';
import Popover from 'antd/es/popover';
import Space from 'antd/es/space';
import type { ColumnType, TablePaginationConfig } from 'antd/es/table';
import Table from 'antd/es/table';
import { type Key, type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageSizeOptions, sortOrderOf } from '../lib/list-query';
import { storage, storageKeys } from '../lib/storage';
import type { ListQueryState } from '../lib/use-list-query';
import styles from './ServerTable.module.css';
import { type ColumnMapping, type TableChange, tableChangeToQuery } from './server-table-mapping';

/** A column of a server-paged table: antd's column plus how it maps to the list contract. */
export interface ServerColumn<T>
  extends Omit<ColumnType<T>, 'key' | 'sorter' | 'filters' | 'title'>,
    ColumnMapping {
  title: ReactNode;
  /** Header filter choices (one value at a time), sent as `filterName`. */
  filterOptions?: { text: ReactNode; value: string }[];
  /** Can the user hide it in the column chooser (default yes)? */
  hideable?: boolean;
  /** Hidden until the user shows it. */
  defaultHidden?: boolean;
}

export interface ServerPage<T> {
  items: T[];
  total: number;
}

export interface ServerTableProps<T> {
  /** Names the table in localStorage (column chooser). */
  tableId: string;
  testId: string;
  columns: ServerColumn<T>[];
  list: ListQueryState;
  page?: ServerPage<T>;
  loading: boolean;
  error?: boolean;
  onRetry?: () => void;
  /** Row selection for bulk actions. */
  selection?: { keys: Key[]; onChange: (keys: Key[]) => void };
  /** Buttons and filters shown above the table, left of the column chooser. */
  toolbar?: ReactNode;
  rowKey?: string;
  scrollX?: number;
  /** The hidden columns when the page holds them (`useHiddenColumns`), else the table does. */
  hiddenColumns?: [string[], (next: string[]) => void];
  /** A detail shown under a row when it is expanded. */
  expandedRow?: (item: T) => ReactNode;
}

const hiddenKey = (tableId: string) => `${storageKeys.columnsPrefix}${tableId}`;

/** The hidden columns of a table: the user's choice if stored, else the columns hidden by default. */
export const readHiddenColumns = (
  tableId: string,
  columns: readonly { key: string; defaultHidden?: boolean }[],
) =>
  storage.read<string[]>(
    hiddenKey(tableId),
    columns.filter((column) => column.defaultHidden).map((column) => column.key),
  );

/** A table's hidden columns, remembered per table; a page holds them when its views set columns. */
export const useHiddenColumns = (
  tableId: string,
  columns: readonly { key: string; defaultHidden?: boolean }[],
): [string[], (next: string[]) => void] => {
  const [hidden, setHidden] = useState<string[]>(() => readHiddenColumns(tableId, columns));
  const change = useCallback(
    (next: string[]) => {
      setHidden(next);
      storage.write(hiddenKey(tableId), next);
    },
    [tableId],
  );
  return [hidden, change];
};

/**
 * The one table of server-paged lists (STYLE §5): antd paging, sorting and header filters become
 * `page`/`limit`/`sort`/filters in the URL (a new filter or sort goes back to page 1); the user picks
 * visible columns (remembered per table); rows can be selected for bulk actions.
 */
export const ServerTable = <T extends object>({
  tableId,
  testId,
  columns,
  list,
  page,
  loading,
  error,
  onRetry,
  selection,
  toolbar,
  rowKey = 'id',
  scrollX,
  hiddenColumns,
  expandedRow,
}: ServerTableProps<T>) => {
  const { t } = useTranslation();
  const own = useHiddenColumns(tableId, columns);
  const [hidden, onHiddenChange] = hiddenColumns ?? own;
  const { query } = list;

  const antColumns = useMemo(
    () =>
      columns
        .filter((column) => !hidden.includes(column.key))
        .map(({ sortField, filterName, filterOptions, hideable: _h, defaultHidden: _d, ...column }) => {
          const antColumn: ColumnType<T> = { ...column, key: column.key };
          if (sortField) {
            antColumn.sorter = true;
            antColumn.sortOrder = sortOrderOf(query.sort, sortField);
          }
          if (filterName && filterOptions) {
            antColumn.filters = filterOptions;
            antColumn.filterMultiple = false;
            const value = query.filters[filterName];
            antColumn.filteredValue = value ? [value] : null;
          }
          return antColumn;
        }),
    [columns, hidden, query.sort, query.filters],
  );

  const pagination: TablePaginationConfig = {
    current: query.page,
    pageSize: query.limit,
    total: page?.total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: pageSizeOptions.map(String),
    showTotal: (total) => t('common.table.total', { total }),
  };

  const onChange = (
    paging: TablePaginationConfig,
    filters: TableChange['filters'],
    sorter: TableChange['sorter'],
  ) => list.update(tableChangeToQuery({ pagination: paging, filters, sorter }, columns));

  const chooser = (
    <Checkbox.Group
      className={styles.chooser}
      value={columns.filter((column) => !hidden.includes(column.key)).map((column) => column.key)}
      options={columns.map((column) => ({
        value: column.key,
        label: column.title,
        disabled: column.hideable === false,
      }))}
      onChange={(shown) => onHiddenChange(columns.map((c) => c.key).filter((key) => !shown.includes(key)))}
    />
  );

  const emptyText = error ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.table.error')}>
      {onRetry && (
        <Button icon={<ReloadOutlined />} onClick={onRetry}>
          {t('common.action.retry')}
        </Button>
      )}
    </Empty>
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.table.empty')} />
  );

  return (
    <div className={styles.wrap}>
      <div className={styles.toolbar}>
        <Space wrap>{toolbar}</Space>
        <Space>
          {onRetry && (
            <Button
              icon={<ReloadOutlined />}
              onClick={onRetry}
              aria-label={t('common.action.refresh')}
              title={t('common.action.refresh')}
            />
          )}
          <Popover
            trigger="click"
            placement="bottomRight"
            title={t('common.table.columns')}
            content={chooser}
          >
            <Button icon={<SettingOutlined />} data-testid={`${testId}-columns`}>
              {t('common.table.columns')}
            </Button>
          </Popover>
        </Space>
      </div>
      {list.ignored.length > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid={`${testId}-ignored`}
          title={t('common.table.ignoredFilter', {
            params: list.ignored.map(({ key, value }) => `${key}=${value}`).join(', '),
          })}
        />
      )}
      <Table<T>
        data-testid={testId}
        rowKey={rowKey}
        size="middle"
        columns={antColumns}
        dataSource={page?.items ?? []}
        loading={loading}
        pagination={pagination}
        onChange={onChange as never}
        scroll={{ x: scrollX ?? 'max-content' }}
        locale={{ emptyText }}
        expandable={expandedRow ? { expandedRowRender: expandedRow } : undefined}
        rowSelection={
          selection
            ? {
                selectedRowKeys: selection.keys,
                onChange: (keys) => selection.onChange(keys),
                preserveSelectedRowKeys: false,
              }
            : undefined
        }
      />
    </div>
  );
};
