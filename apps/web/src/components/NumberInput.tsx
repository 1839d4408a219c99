import InputNumber, { type InputNumberProps } from 'antd/es/input-number';

/** What a number field may be given: everything but the props that change a typed value. */
export type NumberInputProps = Omit<InputNumberProps<number>, 'min' | 'max' | 'precision' | 'step'>;

/**
 * The one number input of the console. antd's `InputNumber` replaces a typed value on blur when it
 * has `min`, `max` or `precision` (0 becomes 1, 1.5 becomes 2): this one keeps exactly what the user
 * typed, and the field's rules (from the contract schemas) say what is wrong with it. Bounds never
 * reach the input, not even through a cast, so no form can clamp (see NumberInput.test.tsx).
 */
export const NumberInput = (props: NumberInputProps) => {
  const {
    min: _min,
    max: _max,
    precision: _precision,
    step: _step,
    ...rest
  } = props as InputNumberProps<number>;
  return <InputNumber<number> {...rest} />;
};
