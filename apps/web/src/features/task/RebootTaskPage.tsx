import type { RebootKind } from '@fbox/contracts';
import Card from 'antd/es/card';
import Tabs from 'antd/es/tabs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useTaskAccess } from './access';
import { RebootQueue } from './components/RebootQueue';
import { TaskBoard } from './components/TaskBoard';

/**
 * Scheduled reboot tasks (/task/rebootTask): miner reboot and PDU reboot, each with its queue,
 * history and detail. The kind is in the URL (`kind`).
 */
export const RebootTaskPage = () => {
  const { t } = useTranslation();
  const access = useTaskAccess();
  const [search, setSearch] = useSearchParams();
  const kind: RebootKind = search.get('kind') === 'pdu' ? 'pdu' : 'miner';

  const board = (of: RebootKind) => (
    <TaskBoard
      family={{ family: 'reboot', kind: of }}
      testId={`reboot-${of}`}
      queue={(showTask) => <RebootQueue kind={of} access={access} onDetail={showTask} />}
    />
  );

  return (
    <Card>
      <Tabs
        activeKey={kind}
        destroyOnHidden
        onChange={(key) => setSearch(key === 'pdu' ? { kind: 'pdu' } : {})}
        items={[
          {
            key: 'miner',
            label: <span data-testid="kind-miner">{t('task.kind.miner')}</span>,
            children: board('miner'),
          },
          {
            key: 'pdu',
            label: <span data-testid="kind-pdu">{t('task.kind.pdu')}</span>,
            children: board('pdu'),
          },
        ]}
      />
    </Card>
  );
};
