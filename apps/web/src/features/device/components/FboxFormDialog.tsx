import { FboxCreateBodySchema, type FboxDetail, fboxKinds } from '@fbox/contracts';
import Col from 'antd/es/col';
import Divider from 'antd/es/divider';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { NumberInput } from '../../../components/NumberInput';
import { schemaRule, voltageOrderRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useCreateFbox, useEditFbox } from '../api-fbox';
import { useKindLabels } from './labels';

const shape = FboxCreateBodySchema.shape;
const VOLT = 'V';
const MAC_EXAMPLE = '00:1A:2B:3C:4D:5E';
type Shape = typeof shape;
const filled = (value: unknown) => value !== undefined && value !== null && value !== '';

interface FboxValues {
  name: string;
  kind: (typeof fboxKinds)[number];
  number?: string;
  ip_range?: string;
  voltage_min?: number;
  voltage_max?: number;
  collector1_mac?: string;
  collector1_account?: string;
  collector1_password?: string;
  collector2_mac?: string;
  collector2_account?: string;
  collector2_password?: string;
  meter1_number?: string;
  meter1_ratio?: number;
  meter2_number?: string;
  meter2_ratio?: number;
}

const initialOf = (fbox: FboxDetail): FboxValues => ({
  name: fbox.name,
  kind: fbox.kind,
  number: fbox.number,
  ip_range: fbox.ip_range,
  voltage_min: fbox.voltage_min,
  voltage_max: fbox.voltage_max,
  collector1_mac: fbox.collectors[0]?.mac,
  collector1_account: fbox.collectors[0]?.account,
  collector2_mac: fbox.collectors[1]?.mac,
  collector2_account: fbox.collectors[1]?.account,
  meter1_number: fbox.meters[0]?.meter_number,
  meter1_ratio: fbox.meters[0]?.sensor_ratio,
  meter2_number: fbox.meters[1]?.meter_number,
  meter2_ratio: fbox.meters[1]?.sensor_ratio,
});

/** Drops empty optional fields (an empty password keeps the stored one). */
const compact = (values: FboxValues) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => filled(value))) as unknown as FboxValues;

const voltageFields: string[] = ['voltage_min', 'voltage_max'];

/** Creates an FBOX, or edits one when `fbox` is given. Rules come from the contract schema. */
export const FboxFormDialog = ({
  open,
  fbox,
  onClose,
}: {
  open: boolean;
  fbox?: FboxDetail;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<FboxValues>();
  const create = useCreateFbox();
  const edit = useEditFbox();
  const kindLabels = useKindLabels();
  const saving = create.isPending || edit.isPending;

  const rule = (name: keyof Shape, optional = true) =>
    schemaRule(shape[name] as never, {
      label: t(`field.${name}` as 'field.name'),
      when: optional ? filled : undefined,
    });
  const item = (name: keyof FboxValues & keyof Shape, input: React.ReactNode, optional = true) => (
    <Form.Item
      name={name}
      label={t(`field.${name}` as 'field.name')}
      rules={voltageFields.includes(name) ? [rule(name, optional), voltageOrderRule] : [rule(name, optional)]}
      dependencies={voltageFields.filter((other) => voltageFields.includes(name) && other !== name)}
      required={!optional}
    >
      {input}
    </Form.Item>
  );

  const onFinish = async (values: FboxValues) => {
    try {
      if (fbox) await edit.mutateAsync({ id: fbox.id, ...compact(values) });
      else await create.mutateAsync(compact(values));
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };

  const voltage = <NumberInput suffix={VOLT} style={{ width: '100%' }} />;

  return (
    <FormModal
      open={open}
      title={fbox ? t('device.box.editTitle') : t('device.box.createTitle')}
      form={form}
      saving={saving}
      onClose={onClose}
      width={720}
    >
      <Form
        form={form}
        name="fboxForm"
        layout="vertical"
        initialValues={fbox ? initialOf(fbox) : { kind: 'immersion' }}
        onFinish={onFinish}
        data-testid="fbox-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            {item('name', <Input autoFocus />, false)}
          </Col>
          <Col xs={24} md={12}>
            {item(
              'kind',
              <Select options={fboxKinds.map((kind) => ({ value: kind, label: kindLabels[kind] }))} />,
              false,
            )}
          </Col>
          <Col xs={24} md={12}>
            {item('number', <Input />)}
          </Col>
          <Col xs={24} md={12}>
            {item('ip_range', <Input />)}
          </Col>
          <Col xs={12} md={6}>
            {item('voltage_min', voltage)}
          </Col>
          <Col xs={12} md={6}>
            {item('voltage_max', voltage)}
          </Col>
        </Row>
        <Divider titlePlacement="start">{t('device.box.collectors')}</Divider>
        <Row gutter={16}>
          {([1, 2] as const).map((no) => (
            <Col xs={24} md={12} key={no}>
              {item(`collector${no}_mac`, <Input placeholder={MAC_EXAMPLE} />)}
              {item(`collector${no}_account`, <Input autoComplete="off" />)}
              {item(
                `collector${no}_password`,
                <Input.Password
                  autoComplete="new-password"
                  placeholder={fbox ? t('device.box.passwordKeep') : undefined}
                />,
              )}
            </Col>
          ))}
        </Row>
        <Divider titlePlacement="start">{t('device.box.meters')}</Divider>
        <Row gutter={16}>
          {([1, 2] as const).map((no) => (
            <Col xs={24} md={12} key={no}>
              {item(`meter${no}_number`, <Input />)}
              {item(`meter${no}_ratio`, <NumberInput style={{ width: '100%' }} />)}
            </Col>
          ))}
        </Row>
      </Form>
    </FormModal>
  );
};
