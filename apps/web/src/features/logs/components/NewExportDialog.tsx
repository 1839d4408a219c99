import { type FieldError, type MinerLogScope, minerLogLimits, minerLogScopes, rule } from '@fbox/contracts';
import DatePicker from 'antd/es/date-picker';
import Form from 'antd/es/form';
import Radio from 'antd/es/radio';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { ApiError } from '../../../lib/api';
import { fieldErrorText, localizeRule } from '../../../lib/form-rules';
import { i18n } from '../../../lib/i18n';
import { showServerErrors } from '../../../lib/server-errors';
import { useStore } from '../../../lib/store';
import { timeZoneStore } from '../../../lib/time';
import { type NewExport, useStartExport } from '../api';
import { fromPickerValue, lastWindow, windowPresets, windowProblem } from '../window';
import { compactFilter, MinerFilterInput, type MinerFilterValue } from './MinerFilterInput';
import { idsOf, type PickedMiner, ScopeIdsSelect } from './ScopeSelects';

const FORMAT = 'YYYY-MM-DD HH:mm';
const DEFAULT_WINDOW_MS = 24 * 3_600_000;

interface ExportValues {
  scope: MinerLogScope;
  ids?: (number | PickedMiner)[];
  filter?: MinerFilterValue;
  window?: [Dayjs | null, Dayjs | null] | null;
}

/**
 * A window problem in words, on the window field: "must not be in the future" says of what (the
 * start), the others read as they are.
 */
const windowText = (message: string): string =>
  message.startsWith('rule.windowFuture')
    ? i18n.t('common.form.ruleWithField', { field: i18n.t('field.from'), rule: i18n.t('rule.windowFuture') })
    : localizeRule(message);

/** A server error on `from` or `to`: its own words (in the user's language) unless it sent a rule only. */
const serverWindowText = (e: FieldError): string => {
  if (e.rule?.startsWith('rule.windowFuture')) return windowText(e.rule);
  if (e.message && !e.message.startsWith('rule.')) return e.message;
  return fieldErrorText(e);
};

/** The server's field as the form's: `from`/`to` are the window, `ids.3` the ids, `filter.x` the filter. */
const formField = (field: string): string => {
  if (field === 'from' || field === 'to') return 'window';
  if (field.startsWith('ids')) return 'ids';
  if (field.startsWith('filter')) return 'filter';
  return field;
};

/**
 * New export: the miners (whole FBOXes, tanks or groups, chosen miners, or a miner-list filter) and
 * the time window (the last 24 h unless changed; presets of 1 h to 7 days). The window is checked as
 * the server checks it, as typed; what the server still refuses shows on its field.
 */
export const NewExportDialog = ({ onClose, onStarted }: { onClose: () => void; onStarted: () => void }) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const [form] = Form.useForm<ExportValues>();
  const start = useStartExport();
  const [initialValues] = useState<ExportValues>(() => ({
    scope: 'fbox',
    ids: [],
    filter: {},
    window: lastWindow(DEFAULT_WINDOW_MS, Date.now(), zone),
  }));
  const scope = Form.useWatch('scope', form) ?? 'fbox';
  const windowLabel = t('minerLogs.form.window');
  const idsLabel = t(`minerLogs.form.ids.${scope === 'filter' ? 'fbox' : scope}`);

  const onFinish = async (values: ExportValues) => {
    const [from, to] = values.window ?? [];
    if (!from || !to) return;
    const body: NewExport = {
      scope: values.scope,
      from: fromPickerValue(from, zone),
      to: fromPickerValue(to, zone),
      ...(values.scope === 'filter' ? { filter: compactFilter(values.filter) } : { ids: idsOf(values.ids) }),
    };
    try {
      await start.mutateAsync(body);
      onStarted();
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      // The window is one field for the server's two: its errors are said of it.
      const own = (e: FieldError) => e.field === 'from' || e.field === 'to';
      const onWindow = error.fieldErrors.filter(own);
      if (onWindow.length > 0) form.setFields([{ name: 'window', errors: onWindow.map(serverWindowText) }]);
      const rest = new ApiError(
        error.message,
        error.kind,
        error.code,
        error.fieldErrors.filter((e) => !own(e)),
      );
      showServerErrors(form, rest, { field: formField });
    }
  };

  return (
    <FormModal
      open
      title={t('minerLogs.form.title')}
      form={form}
      saving={start.isPending}
      onClose={onClose}
      okText={t('minerLogs.form.start')}
      width={720}
      okButtonProps={{ 'data-testid': 'miner-logs-form-start' } as never}
    >
      <Form<ExportValues>
        form={form}
        name="minerLogExportForm"
        layout="vertical"
        initialValues={initialValues}
        onFinish={onFinish}
        onValuesChange={(changed) => {
          // Another way of picking: what was picked the other way does not carry over.
          if ('scope' in changed)
            form.setFields([
              { name: 'ids', value: [], errors: [] },
              { name: 'filter', errors: [] },
            ]);
        }}
        data-testid="miner-logs-form"
      >
        <Form.Item name="scope" label={t('minerLogs.form.scope')}>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={minerLogScopes.map((s) => ({ value: s, label: t(`minerLogs.form.scopeOption.${s}`) }))}
            data-testid="miner-logs-form-scope"
          />
        </Form.Item>
        {scope === 'filter' ? (
          <Form.Item name="filter" label={t('minerLogs.form.filter')} extra={t('minerLogs.form.filterHint')}>
            <MinerFilterInput />
          </Form.Item>
        ) : (
          <Form.Item
            name="ids"
            label={idsLabel}
            required
            extra={t('minerLogs.form.idsHint', { max: minerLogLimits.minersMax.toLocaleString('en-US') })}
            rules={[
              {
                validator: async (_rule, value: unknown[] | undefined) => {
                  if (!value || value.length === 0)
                    throw new Error(t('common.form.choose', { field: idsLabel }));
                },
              },
            ]}
          >
            <ScopeIdsSelect scope={scope} />
          </Form.Item>
        )}
        <Form.Item
          name="window"
          label={windowLabel}
          required
          extra={t('minerLogs.form.windowHint', {
            days: minerLogLimits.windowMaxMs / 86_400_000,
            back: minerLogLimits.lookBackMs / 86_400_000,
            zone: zone ?? t('minerLogs.form.localTime'),
          })}
          rules={[
            {
              validator: async (_rule, value: ExportValues['window']) => {
                const [from, to] = value ?? [];
                if (!from || !to) throw new Error(localizeRule(rule('rule.required'), windowLabel));
                const problem = windowProblem(
                  fromPickerValue(from, zone),
                  fromPickerValue(to, zone),
                  Date.now(),
                );
                if (problem) throw new Error(windowText(problem.message));
              },
            },
          ]}
        >
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format={FORMAT}
            allowEmpty={[false, false]}
            style={{ width: '100%' }}
            presets={windowPresets.map((preset) => ({
              label: t(`minerLogs.form.preset.${preset.key}`),
              value: () => lastWindow(preset.ms, Date.now(), zone),
            }))}
            placeholder={[t('field.from'), t('field.to')]}
            data-testid="miner-logs-form-window"
          />
        </Form.Item>
        {/* Enter in a field starts it, as the OK button does (the modal's buttons are outside the form). */}
        <button type="submit" hidden />
      </Form>
    </FormModal>
  );
};
