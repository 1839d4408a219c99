import type { SubAccount } from '@fbox/contracts';
import { SubAccountListQuerySchema } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateButton } from '../../components/CreateButton';
import { DeleteButton } from '../../components/DeleteButton';
import { KeywordSearch } from '../../components/KeywordSearch';
import { type ServerColumn, ServerTable } from '../../components/ServerTable';
import { tableQueryProps } from '../../components/table-query';
import { formatTime } from '../../lib/time';
import { useListQuery } from '../../lib/use-list-query';
import { useDeleteSubAccount, useEditSubAccount, useSubAccountList } from './api-subaccount';
import { useAuthorityLabels, useRuleLabels } from './components/labels';
import { SubAccountFormDialog } from './components/SubAccountFormDialog';

const filterKeys = ['keyword', 'status', 'authority'] as const;

/** Enable/disable from the list, after a confirmation (disabling signs the account out at once). */
const StatusSwitch = ({ account }: { account: SubAccount }) => {
  const { t } = useTranslation();
  const edit = useEditSubAccount();
  const enabled = account.status === 'enabled';
  return (
    <Popconfirm
      title={
        enabled
          ? t('set.sub.disableConfirm', { name: account.username })
          : t('set.sub.enableConfirm', { name: account.username })
      }
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      onConfirm={() => edit.mutateAsync({ id: account.id, status: enabled ? 'disabled' : 'enabled' })}
    >
      <Switch
        checked={enabled}
        loading={edit.isPending}
        checkedChildren={t('set.sub.enabled')}
        unCheckedChildren={t('set.sub.disabled')}
        aria-label={t('set.sub.status')}
        data-testid={`sub-status-${account.id}`}
      />
    </Popconfirm>
  );
};

/**
 * Sub-accounts (/set/subAccount, masters only): server-paged, searchable, filtered by status and
 * authority; create, edit, enable/disable and delete.
 */
export const SubAccountPage = () => {
  const { t } = useTranslation();
  const list = useListQuery({ filterKeys, schema: SubAccountListQuerySchema });
  const accounts = useSubAccountList(list.query);
  const remove = useDeleteSubAccount();
  const authorityLabels = useAuthorityLabels();
  const ruleLabels = useRuleLabels();
  const [dialog, setDialog] = useState<{ account?: SubAccount } | null>(null);
  const time = (ms: number | null) => (ms ? formatTime(ms) : '-');

  const columns: ServerColumn<SubAccount>[] = [
    {
      key: 'username',
      title: t('field.username'),
      dataIndex: 'username',
      sortField: 'username',
      hideable: false,
      fixed: 'left',
    },
    { key: 'nickname', title: t('field.nickname'), dataIndex: 'nickname', sortField: 'nickname' },
    { key: 'mobile', title: t('field.mobile'), sortField: 'mobile', render: (_, a) => `+${a.mobile}` },
    { key: 'email', title: t('field.email'), dataIndex: 'email', sortField: 'email' },
    { key: 'last_login_ip', title: t('set.sub.loginIp'), render: (_, a) => a.last_login_ip ?? '-' },
    {
      key: 'created_at',
      title: t('set.sub.createdAt'),
      sortField: 'created_at',
      render: (_, a) => time(a.created_at),
    },
    {
      key: 'status',
      title: t('set.sub.status'),
      sortField: 'status',
      filterName: 'status',
      filterOptions: [
        { text: t('set.sub.enabled'), value: 'enabled' },
        { text: t('set.sub.disabled'), value: 'disabled' },
      ],
      render: (_, a) => <StatusSwitch account={a} />,
    },
    {
      key: 'last_login_at',
      title: t('set.sub.lastLogin'),
      sortField: 'last_login_at',
      render: (_, a) => time(a.last_login_at),
    },
    {
      key: 'authority',
      title: t('field.authority'),
      sortField: 'authority',
      filterName: 'authority',
      filterOptions: [
        { text: authorityLabels.administrator, value: 'administrator' },
        { text: authorityLabels.operator, value: 'operator' },
      ],
      render: (_, a) => (
        <Tag color={a.authority === 'administrator' ? 'blue' : undefined}>{authorityLabels[a.authority]}</Tag>
      ),
    },
    {
      key: 'areas',
      title: t('field.area_ids'),
      render: (_, a) =>
        a.areas.length === 0 ? '-' : a.areas.map((area) => <Tag key={area.id}>{area.area_name}</Tag>),
    },
    {
      key: 'rules',
      title: t('field.rules'),
      render: (_, a) =>
        a.authority === 'administrator' ? (
          <Tag color="blue">{t('set.sub.allRules')}</Tag>
        ) : a.rules.length === 0 ? (
          t('set.sub.readOnly')
        ) : (
          a.rules.map((rule) => <Tag key={rule}>{ruleLabels[rule]}</Tag>)
        ),
    },
    {
      key: 'actions',
      title: t('common.table.actions'),
      hideable: false,
      fixed: 'right',
      render: (_, a) => (
        <Space>
          <Button onClick={() => setDialog({ account: a })} data-testid={`sub-edit-${a.id}`}>
            {t('common.action.edit')}
          </Button>
          <DeleteButton
            question={t('set.sub.deleteConfirm', { name: a.username })}
            testId={`sub-delete-${a.id}`}
            onConfirm={() => remove.mutateAsync({ id: a.id })}
          />
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="sub-account-page">
      <Card>
        <ServerTable<SubAccount>
          tableId="sub-accounts"
          testId="sub-account-table"
          columns={columns}
          list={list}
          {...tableQueryProps(accounts)}
          toolbar={
            <>
              <KeywordSearch list={list} placeholder={t('set.sub.search')} testId="sub-search" width={280} />
              <CreateButton label={t('set.sub.create')} testId="sub-create" onClick={() => setDialog({})} />
            </>
          }
        />
      </Card>
      {dialog && <SubAccountFormDialog account={dialog.account} onClose={() => setDialog(null)} />}
    </div>
  );
};
