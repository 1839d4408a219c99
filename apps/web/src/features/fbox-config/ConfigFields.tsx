import {
  type FboxConfigField,
  fboxConfigFieldSchemas,
  fboxConfigFields,
  fboxConfigLimits,
  limits,
} from '@fbox/contracts';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Space from 'antd/es/space';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../components/NumberInput';
import { schemaRule, voltageOrderRule } from '../../lib/form-rules';

const ranges: Record<FboxConfigField, { min: number; max: number; unit: string }> = {
  voltage_min: { min: limits.voltageReferenceMin, max: limits.voltageReferenceMax, unit: 'V' },
  voltage_max: { min: limits.voltageReferenceMin, max: limits.voltageReferenceMax, unit: 'V' },
  temperature_max: { min: fboxConfigLimits.temperatureMin, max: fboxConfigLimits.temperatureMax, unit: '°C' },
  humidity_max: { min: fboxConfigLimits.humidityMin, max: fboxConfigLimits.humidityMax, unit: '%' },
  delay_switch_value: { min: limits.delaySwitchMin, max: limits.delaySwitchMax, unit: 'ms' },
  reporting_interval: {
    min: fboxConfigLimits.reportingIntervalMin,
    max: fboxConfigLimits.reportingIntervalMax,
    unit: 's',
  },
};

/** A value with its unit, as the config page lists it. */
export const showConfigValue = (field: FboxConfigField, value: number): string =>
  `${value} ${ranges[field].unit}`;

/** The field's label key (shared `field.*` texts). */
export const fieldLabelKey = (field: FboxConfigField) => `field.${field}` as const;

/**
 * The six configuration fields with the contract's rules (so the form says what the server would),
 * the voltage band check, and — on the FBOX config page — a "use default" tick per field.
 */
export const ConfigFields = ({
  inheritable = false,
  extra,
  disabled = false,
}: {
  inheritable?: boolean;
  /** Shown under a field (its source and inherited value on the config page). */
  extra?: (field: FboxConfigField) => ReactNode;
  disabled?: boolean;
}) => {
  const { t } = useTranslation();
  const inherit = Form.useWatch('inherit') as Record<FboxConfigField, boolean> | undefined;
  return (
    <>
      {fboxConfigFields.map((field) => {
        const label = t(fieldLabelKey(field));
        const range = ranges[field];
        const inherited = inheritable && Boolean(inherit?.[field]);
        const voltage = field === 'voltage_min' || field === 'voltage_max';
        return (
          <Form.Item key={field} label={label} required extra={extra?.(field)}>
            <Space wrap>
              <Form.Item
                name={field}
                noStyle
                dependencies={
                  voltage ? ['voltage_min', 'voltage_max', ['inherit', field]] : [['inherit', field]]
                }
                rules={[
                  schemaRule(fboxConfigFieldSchemas[field], { label }),
                  ...(voltage ? [voltageOrderRule] : []),
                ]}
              >
                <NumberInput
                  suffix={range.unit}
                  disabled={disabled || inherited}
                  style={{ width: 180 }}
                  aria-label={label}
                  data-testid={`config-${field}`}
                />
              </Form.Item>
              {inheritable && (
                <Form.Item name={['inherit', field]} valuePropName="checked" noStyle>
                  <Checkbox disabled={disabled} data-testid={`config-inherit-${field}`}>
                    {t('fboxConfig.config.inherit')}
                  </Checkbox>
                </Form.Item>
              )}
            </Space>
          </Form.Item>
        );
      })}
    </>
  );
};
