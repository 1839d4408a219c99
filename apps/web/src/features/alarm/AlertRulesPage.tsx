import { type AlertRule, type AlertTarget, alertMetrics } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateButton } from '../../components/CreateButton';
import { DeleteButton } from '../../components/DeleteButton';
import { useCan } from '../../lib/access';
import { formatUptime, NO_DATA } from '../../lib/values';
import { AlertRuleDialog } from './AlertRuleDialog';
import { useAlertRules, useDeleteAlertRule, useSaveAlertRule } from './api';
import { levelColors } from './levels';
import { unitOf } from './metric-units';

/** "above 45 °C", "outside 342–418 V", "below 80 %"; a state reads as what it watches. */
export const conditionText = (t: TFunction, rule: AlertRule): string => {
  const { comparison } = alertMetrics[rule.metric];
  const unit = unitOf(rule.metric);
  if (comparison === 'state') return t('alarm.rules.condition.state');
  if (comparison === 'outside')
    return t('alarm.rules.condition.outside', {
      min: String(rule.threshold),
      max: String(rule.threshold_max),
      unit,
    });
  return t(`alarm.rules.condition.${comparison}`, { value: String(rule.threshold), unit });
};

/**
 * The alert rules of the selected mine for one target (FBOX, Tank or Machine Alert Rules): what
 * each watches, its level, condition, sustain time and recovery margin, on or off. Masters,
 * administrators and operators allowed alert rules add, edit, switch and delete them; the others
 * read them.
 */
const AlertRulesPage = ({ target }: { target: AlertTarget }) => {
  const { t } = useTranslation();
  const can = useCan();
  const rules = useAlertRules(target);
  const save = useSaveAlertRule();
  const remove = useDeleteAlertRule();
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const editable = can('alertRuleSave');
  const columns: ColumnsType<AlertRule> = [
    { key: 'metric', title: t('field.metric'), render: (_, r) => t(`alertMetric.${r.metric}`) },
    {
      key: 'level',
      title: t('field.alertLevel'),
      render: (_, r) => (
        <Tag color={levelColors[r.level]}>{t(`alertLevel.${r.level}` as 'alertLevel.1')}</Tag>
      ),
    },
    { key: 'condition', title: t('alarm.rules.condition.title'), render: (_, r) => conditionText(t, r) },
    {
      key: 'sustain',
      title: t('alarm.rules.sustain'),
      render: (_, r) =>
        r.sustain_seconds === 0 ? t('alarm.rules.immediately') : formatUptime(t, r.sustain_seconds),
    },
    {
      key: 'hysteresis',
      title: t('alarm.rules.hysteresis'),
      render: (_, r) =>
        alertMetrics[r.metric].comparison === 'state' ? NO_DATA : `${r.hysteresis} ${unitOf(r.metric)}`,
    },
    {
      key: 'enabled',
      title: t('alarm.rules.enabled'),
      render: (_, r) => (
        <Switch
          checked={r.enabled}
          disabled={!editable}
          loading={save.isPending && save.variables?.id === r.id}
          onChange={(enabled) => save.mutate({ ...r, enabled })}
          aria-label={t('alarm.rules.enabled')}
          data-testid={`alert-rule-switch-${r.id}`}
        />
      ),
    },
    ...(editable
      ? [
          {
            key: 'actions',
            title: t('common.table.actions'),
            render: (_: unknown, r: AlertRule) => (
              <Space>
                <Button onClick={() => setEditing(r)} data-testid={`alert-rule-edit-${r.id}`}>
                  {t('common.action.edit')}
                </Button>
                <DeleteButton
                  question={t('alarm.rules.deleteQuestion', { rule: t(`alertMetric.${r.metric}`) })}
                  testId={`alert-rule-delete-${r.id}`}
                  onConfirm={() => remove.mutateAsync(r.id)}
                />
              </Space>
            ),
          },
        ]
      : []),
  ];
  return (
    <Card
      title={t(`alarm.rules.title.${target}`)}
      extra={
        editable && (
          <CreateButton
            label={t('alarm.rules.add')}
            testId="alert-rule-add"
            onClick={() => setEditing('new')}
          />
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('alarm.rules.intro')}</Typography.Paragraph>
      {rules.isError && (
        <Alert
          type="error"
          showIcon
          title={t('common.table.error')}
          action={<Button onClick={() => rules.refetch()}>{t('common.action.retry')}</Button>}
        />
      )}
      <Table<AlertRule>
        rowKey="id"
        columns={columns}
        dataSource={rules.data ?? []}
        loading={rules.isLoading}
        pagination={false}
        locale={{ emptyText: t('alarm.rules.empty') }}
        data-testid="alert-rules-table"
      />
      {editing && (
        <AlertRuleDialog
          target={target}
          rule={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Card>
  );
};

export const FboxAlertRulesPage = () => <AlertRulesPage target="fbox" />;
export const TankAlertRulesPage = () => <AlertRulesPage target="tank" />;
export const MachineAlertRulesPage = () => <AlertRulesPage target="miner" />;
