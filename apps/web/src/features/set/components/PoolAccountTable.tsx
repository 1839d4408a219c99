import Card from 'antd/es/card';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateButton } from '../../../components/CreateButton';
import { KeywordSearch } from '../../../components/KeywordSearch';
import { type ServerColumn, ServerTable } from '../../../components/ServerTable';
import { type TableQuery, tableQueryProps } from '../../../components/table-query';
import { type ListQueryState, useListQuery } from '../../../lib/use-list-query';
import { useCanManagePools } from '../can-manage';
import styles from '../set.module.css';

/** What every pool table names: the account at a pool, for a coin. */
interface PoolAccountRow {
  id: number;
  pool: string;
  subaccount: string;
  coin: string;
}

const filterKeys = ['keyword'] as const;

/** A pool table's query in the URL: paging, sorting and the keyword. */
export const usePoolListQuery = () => useListQuery({ filterKeys });

interface Props<T extends PoolAccountRow> {
  tableId: string;
  testId: string;
  list: ListQueryState;
  rows: TableQuery<T>;
  /** The page's own columns, after pool, subaccount and coin. */
  columns: ServerColumn<T>[];
  /** A row's buttons, shown to those who may manage pools. */
  rowActions: (row: T) => ReactNode;
  create: { label: string; testId: string; onClick: () => void };
  /** The page's dialog while it is open. */
  children?: ReactNode;
}

/**
 * The page of a pool setting list of the selected mine: search by keyword; those who may manage
 * pools also create, and act on rows.
 */
export const PoolAccountTable = <T extends PoolAccountRow>({
  tableId,
  testId,
  list,
  rows,
  columns,
  rowActions,
  create,
  children,
}: Props<T>) => {
  const { t } = useTranslation();
  const canManage = useCanManagePools();

  const allColumns: ServerColumn<T>[] = [
    { key: 'pool', title: t('field.pool'), dataIndex: 'pool', sortField: 'pool', hideable: false },
    { key: 'subaccount', title: t('field.subaccount'), dataIndex: 'subaccount', sortField: 'subaccount' },
    { key: 'coin', title: t('field.coin'), dataIndex: 'coin', sortField: 'coin' },
    ...columns,
    ...(canManage
      ? [
          {
            key: 'actions',
            title: t('common.table.actions'),
            hideable: false,
            render: (_: unknown, row: T) => rowActions(row),
          } satisfies ServerColumn<T>,
        ]
      : []),
  ];

  return (
    <div className={styles.page}>
      <Card>
        <ServerTable<T>
          tableId={tableId}
          testId={testId}
          columns={allColumns}
          list={list}
          {...tableQueryProps(rows)}
          toolbar={
            <>
              <KeywordSearch list={list} placeholder={t('pools.common.search')} />
              {canManage && <CreateButton {...create} />}
            </>
          }
        />
      </Card>
      {children}
    </div>
  );
};
