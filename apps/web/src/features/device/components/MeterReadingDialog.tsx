import { limits, SetMeterBodySchema } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { NumberInput } from '../../../components/NumberInput';
import { toast } from '../../../lib/feedback';
import { localizeRule, schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useStore } from '../../../lib/store';
import { formatTime, timeZoneStore } from '../../../lib/time';
import { showEnergy } from '../../../lib/values';
import { fromPickerValue } from '../../../lib/zoned-time';
import { ZonedDateTime } from '../../task/components/ZonedDateTime';
import { useSetMeter } from '../api-fbox';

interface Values {
  reading_at?: Dayjs;
  reading_kwh?: number;
  reason?: string;
}

const shape = SetMeterBodySchema.shape;

/**
 * Enter what a meter showed at a time its readings are missing (docs/statistics.md "Meter readings
 * entered by hand"): the server splits the gap's energy at it and says where it went.
 */
export const MeterReadingDialog = ({
  fboxId,
  no,
  onClose,
}: {
  fboxId: number;
  no: number;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const zone = useStore(timeZoneStore);
  const setMeter = useSetMeter(fboxId);
  const readAt = t('field.reading_at');
  const reading = t('field.reading_kwh');
  const reason = t('field.reason');
  const required = (label: string) => ({ required: true, message: localizeRule('rule.required', label) });

  const onFinish = async (values: Values) => {
    try {
      const answer = await setMeter.mutateAsync({
        meter_no: no,
        reading_kwh: values.reading_kwh,
        reading_at: values.reading_at ? fromPickerValue(values.reading_at, zone) : undefined,
        reason: values.reason,
      });
      const c = answer.correction;
      if (c)
        void toast(
          'success',
          t('device.meter.entered', { energy: showEnergy(c.energy_kwh), hour: formatTime(c.reading_at) }),
          limits.toastMs / 1000,
        );
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };

  return (
    <FormModal
      open
      title={t('device.meter.readingTitle', { no })}
      form={form}
      saving={setMeter.isPending}
      onClose={onClose}
      okButtonProps={{ 'data-testid': 'meter-reading-save' } as never}
    >
      <Alert type="info" showIcon title={t('device.meter.readingHint')} style={{ marginBottom: 16 }} />
      <Form<Values> form={form} name="meterReading" layout="vertical" onFinish={onFinish}>
        <Form.Item name="reading_at" label={readAt} rules={[required(readAt)]}>
          <ZonedDateTime testId="meter-reading-at" />
        </Form.Item>
        <Form.Item
          name="reading_kwh"
          label={reading}
          rules={[required(reading), schemaRule(shape.reading_kwh, { label: reading })]}
        >
          <NumberInput style={{ width: '100%' }} suffix="kWh" data-testid="meter-reading-kwh" />
        </Form.Item>
        <Form.Item
          name="reason"
          label={reason}
          rules={[required(reason), schemaRule(shape.reason, { label: reason })]}
        >
          <Input.TextArea
            rows={2}
            count={{ show: true, max: 200 }}
            placeholder={t('device.meter.reasonPlaceholder')}
            data-testid="meter-reading-reason"
          />
        </Form.Item>
        <button type="submit" hidden />
      </Form>
    </FormModal>
  );
};
