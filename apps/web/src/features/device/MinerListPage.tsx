import { DownloadOutlined } from '@ant-design/icons';
import type { MinerListItem } from '@fbox/contracts';
import { MinerListQuerySchema } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Typography from 'antd/es/typography';
import { type Key, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../app/query-client';
import { ServerTable, useHiddenColumns } from '../../components/ServerTable';
import { tableQueryProps } from '../../components/table-query';
import { download } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { parseListQuery, toRequestParams } from '../../lib/list-query';
import type { PagePrefetch } from '../../lib/route-types';
import { useListQuery } from '../../lib/use-list-query';
import { chosenAreaId } from '../mines';
import { minerListQuery, useMinerList } from './api-miner';
import { CommandOutcomesDrawer } from './components/CommandOutcomesDrawer';
import styles from './components/device.module.css';
import { minerName, useFaultText, useModeLabels, useStatusOptions } from './components/labels';
import {
  type BulkStart,
  MinerBulkActions,
  MinerRowMenu,
  useAnyBulkAction,
  useMinerActions,
} from './components/MinerBulkActions';
import { MinerFilters } from './components/MinerFilters';
import { MinerViews } from './components/MinerViews';
import { minerColumns } from './components/miner-columns';
import { useCommandOutcomes } from './use-command-outcomes';

const filterKeys = [
  'keyword',
  'fbox_id',
  'tank_id',
  'status',
  'model',
  'brand',
  'pool',
  'mode',
  'fault',
  'under_pct',
  // Lock Pool's guard (features/fbox-config).
  'pool_hijacked',
] as const;

/** The list's URL state: the page and its prefetch read the URL alike. */
const listConfig = { filterKeys, schema: MinerListQuerySchema };

/**
 * The page's first request, started while the session is checked: the first render finds its rows.
 * On a first visit it goes out once the mine list has chosen the mine, still before the layout renders.
 */
export const prefetchMinerList: PagePrefetch = async (url) => {
  if ((await chosenAreaId()) === undefined) return;
  await queryClient.prefetchQuery(minerListQuery(parseListQuery(url.searchParams, listConfig)));
};

/**
 * Miner list (/device/machineList): server-paged with filters in the URL, a column chooser, bulk
 * actions on the selected rows with a live per-miner outcome drawer, and CSV export of the filter.
 */
export const MinerListPage = () => {
  const { t } = useTranslation();
  const list = useListQuery(listConfig);
  const miners = useMinerList(list.query);
  const modeLabels = useModeLabels();
  const statusOptions = useStatusOptions();
  const [selected, setSelected] = useState<Key[]>([]);
  const outcomes = useCommandOutcomes();
  const anyAction = useAnyBulkAction();
  const [drawer, setDrawer] = useState<{ open: boolean; title: string }>({ open: false, title: '' });
  const names = useRef(new Map<number | string, string>());
  const faultText = useFaultText();

  // Remember the names of the miners on screen, so the drawer can name them after paging on.
  for (const miner of miners.data?.items ?? []) names.current.set(miner.id, minerName(miner));

  const onStarted = ({ title, batchId, outcomes: rows }: BulkStart) => {
    outcomes.dispatch({ type: 'start', batchId, outcomes: rows });
    setDrawer({ open: true, title });
  };
  const actions = useMinerActions({ onStarted, onDeleted: () => setSelected([]) });
  const columns = minerColumns(t, {
    modeLabels,
    statusOptions,
    faultText,
    rowMenu: anyAction
      ? (miner) => <MinerRowMenu actions={actions} id={miner.id} name={minerName(miner)} />
      : undefined,
  });
  const hidden = useHiddenColumns('miner-list', columns);

  const onExport = () => {
    const { page: _p, limit: _l, ...params } = toRequestParams(list.query);
    void download('minerExport', { ...areaScope(), ...params }, 'miners.csv');
  };

  return (
    <div className={styles.page}>
      {actions.holder}
      <Card>
        <div className={styles.headerRow} style={{ marginBottom: 12 }}>
          {anyAction && (
            <>
              <Typography.Text type="secondary" data-testid="miner-selected-count">
                {t('device.miner.selected', { count: selected.length })}
              </Typography.Text>
              <MinerBulkActions actions={actions} ids={selected.map(Number)} />
            </>
          )}
          {outcomes.state.outcomes.length > 0 && !drawer.open && (
            <Button
              onClick={() => setDrawer((d) => ({ ...d, open: true }))}
              data-testid="command-outcomes-open"
            >
              {t('device.command.showOutcomes')}
            </Button>
          )}
        </div>
        <ServerTable<MinerListItem>
          tableId="miner-list"
          testId="miner-list-table"
          columns={columns}
          list={list}
          {...tableQueryProps(miners)}
          selection={anyAction ? { keys: selected, onChange: setSelected } : undefined}
          hiddenColumns={hidden}
          toolbar={
            <>
              <MinerViews
                list={list}
                filterKeys={filterKeys}
                columnKeys={columns.map((column) => column.key)}
                hidden={hidden}
              />
              <MinerFilters list={list} />
              <Button icon={<DownloadOutlined />} onClick={onExport} data-testid="miner-export">
                {t('device.miner.export')}
              </Button>
            </>
          }
        />
      </Card>
      <CommandOutcomesDrawer
        open={drawer.open}
        title={drawer.title}
        state={outcomes.state}
        names={names.current}
        onClose={() => setDrawer((d) => ({ ...d, open: false }))}
      />
    </div>
  );
};
