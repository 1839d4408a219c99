import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { schemaRule } from '../../../lib/form-rules';

interface PushRowListProps {
  name: 'emailList' | 'teamsUrlList' | 'telegramList';
  label: string;
  max: number;
  /** Rows are checked while their channel is on, or whenever they are filled in. */
  channelOn: () => boolean;
  schema: z.ZodType;
  placeholder: string;
  extra?: ReactNode;
}

const filled = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** A dynamic list of text rows; the last row cannot be removed, at most `max` rows. */
export const PushRowList = ({
  name,
  label,
  max,
  channelOn,
  schema,
  placeholder,
  extra,
}: PushRowListProps) => {
  const { t } = useTranslation();
  return (
    <Form.Item label={label} extra={extra} required={channelOn()}>
      <Form.List name={name}>
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, index) => (
              <div key={field.key} style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
                <Form.Item
                  name={field.name}
                  style={{ flex: 1, marginBottom: 8 }}
                  dependencies={['checkList']}
                  rules={[schemaRule(schema, { label, when: (value) => channelOn() || filled(value) })]}
                >
                  <Input placeholder={placeholder} aria-label={`${label} ${index + 1}`} />
                </Form.Item>
                <Button
                  type="text"
                  icon={<MinusCircleOutlined />}
                  aria-label={t('auth.push.removeRow')}
                  disabled={fields.length <= 1}
                  onClick={() => remove(field.name)}
                />
              </div>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= max}
              onClick={() => add('')}
            >
              {t('auth.push.addRow', { max })}
            </Button>
          </>
        )}
      </Form.List>
    </Form.Item>
  );
};
