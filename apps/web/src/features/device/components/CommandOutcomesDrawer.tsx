import Drawer from 'antd/es/drawer';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CommandStatusTag } from '../../../components/CommandStatusTag';
import { countOutcomes, type Outcome, type OutcomeState } from '../outcome-reducer';
import { minerDetailPath } from '../use-id-param';

/**
 * Per-miner result of a bulk action, updating live as acknowledgements arrive. Each row's status
 * carries `data-status` (pending, sent, acknowledged, failed, timed_out).
 */
export const CommandOutcomesDrawer = ({
  open,
  title,
  state,
  names,
  onClose,
}: {
  open: boolean;
  title: string;
  state: OutcomeState;
  /** Worker names (or IPs) of the miners, by id, as the list showed them. */
  names: ReadonlyMap<number | string, string>;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const counts = countOutcomes(state.outcomes);
  return (
    <Drawer
      open={open}
      title={title}
      onClose={onClose}
      size={560}
      data-testid="command-outcomes"
      destroyOnHidden
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Typography.Text>{t('device.command.total', { count: state.outcomes.length })}</Typography.Text>
        <Typography.Text type="success">
          {t('device.command.ackCount', { count: counts.acknowledged })}
        </Typography.Text>
        <Typography.Text type="secondary">
          {t('device.command.pendingCount', { count: counts.pending + counts.sent })}
        </Typography.Text>
        <Typography.Text type="danger">
          {t('device.command.failedCount', { count: counts.failed + counts.timed_out + counts.not_found })}
        </Typography.Text>
      </Space>
      <Table<Outcome>
        rowKey={(outcome) => String(outcome.key)}
        size="small"
        dataSource={state.outcomes}
        pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
        columns={[
          {
            key: 'miner',
            title: t('device.miner.worker'),
            render: (_, outcome) =>
              typeof outcome.key === 'number' ? (
                <Link to={minerDetailPath(outcome.key)}>{names.get(outcome.key) ?? `#${outcome.key}`}</Link>
              ) : (
                outcome.key
              ),
          },
          {
            key: 'status',
            title: t('device.command.status'),
            render: (_, outcome) => (
              <span data-testid="command-outcome" data-status={outcome.status}>
                <CommandStatusTag status={outcome.status} />
              </span>
            ),
          },
          { key: 'error', title: t('device.command.error'), render: (_, outcome) => outcome.error ?? '' },
        ]}
      />
    </Drawer>
  );
};
