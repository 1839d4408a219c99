import { DownloadOutlined } from '@ant-design/icons';
import type { OplogEntry } from '@fbox/contracts';
import { OplogListQuerySchema } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerTable } from '../../components/ServerTable';
import { tableQueryProps } from '../../components/table-query';
import { useListQuery } from '../../lib/use-list-query';
import { exportOplog, useOplogList } from './api';
import { OplogFilters } from './components/OplogFilters';
import { oplogColumns } from './components/oplog-columns';

const filterKeys = ['user_id', 'action', 'mine_id', 'outcome', 'from', 'to'] as const;

/**
 * Operation Log (/logs/operationLog): every state-changing call of the account, read-only,
 * server-paged newest first, filtered by user, action, mine, outcome and days (in the URL), and
 * exported as CSV with the same filters.
 */
export const OperationLogPage = () => {
  const { t } = useTranslation();
  const list = useListQuery({ filterKeys, schema: OplogListQuerySchema });
  const log = useOplogList(list.query);
  const columns = useMemo(() => oplogColumns(t), [t]);
  return (
    <Card>
      <ServerTable<OplogEntry>
        tableId="operation-log"
        testId="oplog-table"
        columns={columns}
        list={list}
        {...tableQueryProps(log)}
        toolbar={
          <>
            <OplogFilters list={list} />
            <Button
              icon={<DownloadOutlined />}
              onClick={() => void exportOplog(list.query)}
              data-testid="oplog-export"
            >
              {t('oplog.export')}
            </Button>
          </>
        }
      />
    </Card>
  );
};
