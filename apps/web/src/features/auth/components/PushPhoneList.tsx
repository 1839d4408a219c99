import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { limits, pushRowSchemas } from '@fbox/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CountryCodeSelect } from '../../../components/CountryCodeSelect';
import { schemaRule } from '../../../lib/form-rules';

const filled = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** Phone rows (country code + number, at most 5); the last row cannot be removed. */
export const PushPhoneList = ({ channelOn, extra }: { channelOn: () => boolean; extra?: ReactNode }) => {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <Form.Item label={t('field.mobileList')} extra={extra} required={channelOn()}>
      <Form.List name="mobileList">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, index) => {
              const rowFilled = () => {
                const row = form.getFieldValue(['mobileList', field.name]) as {
                  code?: string;
                  number?: string;
                };
                return channelOn() || filled(row?.code) || filled(row?.number);
              };
              return (
                <div key={field.key} style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
                  <Space.Compact style={{ flex: 1 }}>
                    <Form.Item
                      name={[field.name, 'code']}
                      style={{ width: 120, marginBottom: 8 }}
                      dependencies={['checkList', ['mobileList', field.name, 'number']]}
                      rules={[
                        schemaRule(pushRowSchemas.phoneCode, {
                          label: t('auth.push.countryCode'),
                          when: rowFilled,
                        }),
                      ]}
                    >
                      <CountryCodeSelect
                        placeholder={t('auth.push.countryCode')}
                        aria-label={`${t('auth.push.countryCode')} ${index + 1}`}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'number']}
                      style={{ flex: 1, marginBottom: 8 }}
                      dependencies={['checkList', ['mobileList', field.name, 'code']]}
                      rules={[
                        schemaRule(pushRowSchemas.phoneNumber, {
                          label: t('auth.push.phoneNumber'),
                          when: rowFilled,
                        }),
                      ]}
                    >
                      <Input
                        placeholder={t('auth.push.phoneNumber')}
                        aria-label={`${t('auth.push.phoneNumber')} ${index + 1}`}
                        inputMode="numeric"
                      />
                    </Form.Item>
                  </Space.Compact>
                  <Button
                    type="text"
                    icon={<MinusCircleOutlined />}
                    aria-label={t('auth.push.removeRow')}
                    disabled={fields.length <= 1}
                    onClick={() => remove(field.name)}
                  />
                </div>
              );
            })}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= limits.maxPushPhones}
              onClick={() => add({ code: '', number: '' })}
            >
              {t('auth.push.addRow', { max: limits.maxPushPhones })}
            </Button>
          </>
        )}
      </Form.List>
    </Form.Item>
  );
};
