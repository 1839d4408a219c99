import { DownOutlined } from '@ant-design/icons';
import type { EndpointName } from '@fbox/contracts';
import { MinerOverclockBodySchema, MinerPoolBodySchema } from '@fbox/contracts';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Space from 'antd/es/space';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../components/NumberInput';
import { useCan } from '../../../lib/access';
import { schemaRule } from '../../../lib/form-rules';
import { type MinerBulkAction, useDeleteMiners, useMinerAction } from '../api-miner';
import type { Outcome } from '../outcome-reducer';
import { BulkFormDialog } from './BulkFormDialog';

export interface BulkStart {
  title: string;
  batchId: string;
  outcomes: Outcome[];
}

interface Handlers {
  /** Called with each miner's command once the server accepted the action. */
  onStarted: (start: BulkStart) => void;
  onDeleted: () => void;
}

const poolShape = MinerPoolBodySchema.shape;
const POOL_EXAMPLE = 'stratum+tcp://pool.example.com:3333';
const overclockShape = MinerOverclockBodySchema.shape;
/** The endpoint behind each action: an action shows only when the caller may call it. */
export const bulkActionEndpoints = {
  restart: 'minerRestart',
  high: 'minerChangeMode',
  low: 'minerChangeMode',
  pool: 'minerChangePool',
  overclock: 'minerAutoOverclock',
  resave: 'minerResaveAccount',
  delete: 'minerDelete',
} as const satisfies Record<string, EndpointName>;
export type MinerActionKey = keyof typeof bulkActionEndpoints;

/** Test ids of the toolbar buttons (`miner-bulk-<id>`), stable for the e2e suite. */
const testIds: Record<MinerActionKey, string> = {
  restart: 'restart',
  high: 'mode-high',
  low: 'mode-low',
  pool: 'pool',
  overclock: 'overclock',
  resave: 'resave',
  delete: 'delete',
};

/** Whether any miner action is open to the caller (else the list offers no row selection). */
export const useAnyBulkAction = (): boolean => {
  const can = useCan();
  return Object.values(bulkActionEndpoints).some(can);
};

const filled = (value: unknown) => value !== undefined && value !== null && value !== '';

/** Which miners an action is about to touch: ids, and the miner's name when it is one miner. */
export interface ActionTarget {
  ids: number[];
  name?: string;
}

/**
 * The miner actions — restart, high/low mode, pool change, auto overclock, re-save account, delete —
 * each behind a confirmation that says which miners it touches. One place for the list's toolbar, a
 * row's menu and the miner's own page, so all three ask and report the same way.
 */
export const useMinerActions = ({ onStarted, onDeleted }: Handlers) => {
  const { t } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const action = useMinerAction();
  const remove = useDeleteMiners();
  const [dialog, setDialog] = useState<{ kind: 'pool' | 'overclock'; target: ActionTarget } | null>(null);
  const [poolForm] = Form.useForm<{ pool_address: string; worker: string; password?: string }>();
  const [clockForm] = Form.useForm<{ status: 'on' | 'off'; min?: number; max?: number }>();
  const can = useCan();

  const labels: Record<MinerActionKey, string> = {
    restart: t('device.miner.bulkRestart'),
    high: t('device.miner.bulkHigh'),
    low: t('device.miner.bulkLow'),
    pool: t('device.miner.bulkPool'),
    overclock: t('device.miner.bulkOverclock'),
    resave: t('device.miner.bulkResave'),
    delete: t('device.miner.bulkDelete'),
  };
  /** "This applies to S19-01." for one named miner, else how many are selected. */
  const scope = ({ ids, name }: ActionTarget) =>
    name
      ? t('device.miner.actionConfirmOne', { name })
      : t('device.miner.bulkConfirm', { count: ids.length });

  const run = async (ids: number[], bulk: MinerBulkAction, title: string) => {
    const result = await action.mutateAsync({ ids, action: bulk });
    onStarted({
      title,
      batchId: result.batch_id,
      outcomes: result.commands.map((c) => ({ key: c.miner_id, commandId: c.command_id, status: c.status })),
    });
  };

  const confirm = (target: ActionTarget, bulk: MinerBulkAction, title: string) =>
    void modal.confirm({
      title,
      content: scope(target),
      okText: t('common.action.ok'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { 'data-testid': 'bulk-confirm-ok' } as never,
      onOk: () => run(target.ids, bulk, title),
    });

  const onDelete = (target: ActionTarget) =>
    void modal.confirm({
      title: labels.delete,
      content: target.name
        ? t('device.miner.deleteConfirmOne', { name: target.name })
        : t('device.miner.deleteConfirm', { count: target.ids.length }),
      okText: t('common.action.delete'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'bulk-confirm-ok' } as never,
      onOk: () => remove.mutateAsync({ ids: target.ids }).then(onDeleted),
    });

  /** Starts an action on the target: its confirmation, or the dialog that asks for its values. */
  const start = (key: MinerActionKey, target: ActionTarget) => {
    if (key === 'restart') confirm(target, { kind: 'restart' }, labels.restart);
    else if (key === 'high' || key === 'low') confirm(target, { kind: 'mode', mode: key }, labels[key]);
    else if (key === 'resave') confirm(target, { kind: 'resave' }, labels.resave);
    else if (key === 'delete') onDelete(target);
    else setDialog({ kind: key, target });
  };

  const keys = (Object.keys(bulkActionEndpoints) as MinerActionKey[]).filter((key) =>
    can(bulkActionEndpoints[key]),
  );
  const target = dialog?.target ?? { ids: [] };
  const close = () => setDialog(null);

  const holder: ReactNode = (
    <>
      {modalHolder}
      <BulkFormDialog
        open={dialog?.kind === 'pool'}
        title={labels.pool}
        form={poolForm}
        name="minerPool"
        scope={scope(target)}
        saving={action.isPending}
        onClose={close}
        onSubmit={(values) =>
          run(target.ids, { kind: 'pool', ...values, password: values.password || undefined }, labels.pool)
        }
      >
        <Form.Item
          name="pool_address"
          label={t('device.miner.poolAddress')}
          required
          rules={[schemaRule(poolShape.pool_address, { label: t('device.miner.poolAddress') })]}
        >
          <Input autoFocus placeholder={POOL_EXAMPLE} />
        </Form.Item>
        <Form.Item
          name="worker"
          label={t('device.miner.worker')}
          required
          rules={[schemaRule(poolShape.worker, { label: t('device.miner.worker') })]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="password" label={t('device.miner.poolPassword')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </BulkFormDialog>

      <BulkFormDialog
        open={dialog?.kind === 'overclock'}
        title={labels.overclock}
        form={clockForm}
        name="minerOverclock"
        scope={scope(target)}
        saving={action.isPending}
        initialValues={{ status: 'on' }}
        onClose={close}
        onSubmit={(values) => run(target.ids, { kind: 'overclock', ...values }, labels.overclock)}
      >
        <Form.Item name="status" label={t('field.auto_frequency')}>
          <Radio.Group
            options={[
              { value: 'on', label: t('common.state.on') },
              { value: 'off', label: t('common.state.off') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="min"
          label={t('field.min')}
          rules={[schemaRule(overclockShape.min, { label: t('field.min'), when: filled })]}
        >
          <NumberInput style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="max"
          label={t('field.max')}
          dependencies={['min']}
          rules={[
            schemaRule(overclockShape.max, { label: t('field.max'), when: filled }),
            ({ getFieldValue }) => ({
              validator: async (_rule, value?: number) => {
                const min = getFieldValue('min') as number | undefined;
                if (filled(value) && filled(min) && (min as number) > (value as number))
                  throw new Error(t('device.miner.minAboveMax'));
              },
            }),
          ]}
        >
          <NumberInput style={{ width: '100%' }} />
        </Form.Item>
      </BulkFormDialog>
    </>
  );

  return { keys, labels, start, holder };
};

export type MinerActions = ReturnType<typeof useMinerActions>;

/**
 * The action buttons over the list, acting on the selected rows, or on one miner's page (`name`).
 * The caller renders `actions.holder` once (confirmations and dialogs).
 */
export const MinerBulkActions = ({
  actions,
  ids,
  name,
}: {
  actions: Pick<MinerActions, 'keys' | 'labels' | 'start'>;
  ids: number[];
  name?: string;
}) => {
  return (
    <Space wrap>
      {actions.keys.map((key) => (
        <Button
          key={key}
          data-testid={`miner-bulk-${testIds[key]}`}
          disabled={ids.length === 0}
          danger={key === 'delete'}
          onClick={() => actions.start(key, { ids, name })}
        >
          {actions.labels[key]}
        </Button>
      ))}
    </Space>
  );
};

/**
 * A row's action menu: the same actions on that one miner, so acting on a miner needs neither
 * selecting it nor scrolling to the toolbar. `actions` comes from the list's `useMinerActions`.
 * The menu itself (antd's Dropdown: a trigger with its popup and their styles, one per row) is built
 * when the row's button is first used; until then a row shows only the button.
 */
export const MinerRowMenu = ({
  actions,
  id,
  name,
}: {
  actions: Pick<MinerActions, 'keys' | 'labels' | 'start'>;
  id: number;
  name: string;
}) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState<boolean | undefined>(undefined);
  const button = (
    <Button
      size="small"
      data-testid="miner-row-actions"
      aria-label={t('device.miner.rowActions', { name })}
      aria-haspopup="menu"
      onClick={open === undefined ? () => setOpen(true) : undefined}
    >
      {t('common.action.more')} <DownOutlined />
    </Button>
  );
  if (open === undefined) return button;
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        items: actions.keys.map((key) => ({
          key,
          label: actions.labels[key],
          danger: key === 'delete',
          'data-testid': `miner-row-${testIds[key]}`,
        })),
        onClick: ({ key }) => {
          setOpen(false);
          actions.start(key as MinerActionKey, { ids: [id], name });
        },
      }}
    >
      {button}
    </Dropdown>
  );
};
