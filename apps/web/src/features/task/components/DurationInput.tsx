import Select from 'antd/es/select';
import Space from 'antd/es/space';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../components/NumberInput';

type Unit = 's' | 'min';
const factors: Record<Unit, number> = { s: 1, min: 60 };

interface Props {
  /** Seconds (what the form and the server hold). */
  value?: number | null;
  onChange?: (seconds: number | undefined) => void;
  id?: string;
  /** The unit shown first for a new value. */
  defaultUnit?: Unit;
  /** Only seconds (short durations such as the PDU's off time). */
  secondsOnly?: boolean;
  testId?: string;
}

/**
 * A duration typed in minutes or seconds, its unit said beside it; the form receives seconds.
 * Changing the unit keeps the typed number ("5" seconds becomes "5" minutes).
 */
export const DurationInput = ({ value, onChange, id, defaultUnit = 'min', secondsOnly, testId }: Props) => {
  const { t } = useTranslation();
  const [unit, setUnit] = useState<Unit>(() => {
    if (secondsOnly) return 's';
    if (value === undefined || value === null) return defaultUnit;
    return value >= 60 && value % 60 === 0 ? 'min' : 's';
  });
  const factor = factors[unit];
  const shown = value === undefined || value === null ? null : value / factor;
  // Seconds as typed (to the millisecond, dropping float noise such as 0.1 × 60): a fraction of a
  // second is for the rules to refuse, not for this input to round away.
  const emit = (number: number | null, inUnit: Unit) =>
    onChange?.(number === null ? undefined : Math.round(number * factors[inUnit] * 1000) / 1000);

  return (
    <Space.Compact style={{ width: '100%' }}>
      <NumberInput
        id={id}
        value={shown}
        style={{ width: '100%' }}
        onChange={(number) => emit(number, unit)}
        data-testid={testId}
      />
      {secondsOnly ? (
        <Space.Addon>{t('task.unit.seconds')}</Space.Addon>
      ) : (
        <Select<Unit>
          value={unit}
          aria-label={t('task.unit.label')}
          style={{ width: 110 }}
          onChange={(next) => {
            setUnit(next);
            emit(shown, next);
          }}
          options={[
            { value: 's', label: t('task.unit.seconds') },
            { value: 'min', label: t('task.unit.minutes') },
          ]}
          data-testid={testId ? `${testId}-unit` : undefined}
        />
      )}
    </Space.Compact>
  );
};
