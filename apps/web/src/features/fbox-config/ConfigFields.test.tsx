import { builtinFboxConfig } from '@fbox/contracts';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import Form from 'antd/es/form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigFields } from './ConfigFields';

afterEach(cleanup);

const setup = (inheritable: boolean) => {
  const onFinish = vi.fn();
  const inherit = Object.fromEntries(Object.keys(builtinFboxConfig).map((field) => [field, true]));
  const Harness = () => {
    const [form] = Form.useForm();
    return (
      <Form form={form} initialValues={{ ...builtinFboxConfig, inherit }} onFinish={onFinish}>
        <ConfigFields inheritable={inheritable} />
        <button type="submit">submit</button>
      </Form>
    );
  };
  render(<Harness />);
  return { onFinish, submit: () => act(() => fireEvent.click(screen.getByText('submit'))) };
};

describe('ConfigFields', () => {
  it('refuses a voltage band whose minimum is not below the maximum, on both fields', async () => {
    const { onFinish, submit } = setup(false);
    fireEvent.change(screen.getByTestId('config-voltage_min'), { target: { value: '400' } });
    fireEvent.change(screen.getByTestId('config-voltage_max'), { target: { value: '380' } });
    await submit();
    await waitFor(() =>
      expect(screen.getAllByText('Minimum voltage must be below the maximum voltage')).toHaveLength(2),
    );
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('keeps out-of-range numbers as typed and refuses them on their fields', async () => {
    const { onFinish, submit } = setup(false);
    const typed = { voltage_min: '300', voltage_max: '500', delay_switch_value: '20000' };
    for (const [field, value] of Object.entries(typed)) {
      const input = screen.getByTestId(`config-${field}`);
      act(() => input.focus());
      fireEvent.change(input, { target: { value } });
      fireEvent.focusOut(input);
    }
    await submit();
    await waitFor(() =>
      expect(document.querySelectorAll('.ant-form-item-explain-error').length).toBeGreaterThan(0),
    );
    for (const [field, value] of Object.entries(typed))
      expect((screen.getByTestId(`config-${field}`) as HTMLInputElement).value).toBe(value);
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('submits the values in range', async () => {
    const { onFinish, submit } = setup(false);
    fireEvent.change(screen.getByTestId('config-delay_switch_value'), { target: { value: '2500' } });
    await submit();
    await waitFor(() => expect(onFinish).toHaveBeenCalled());
    expect(onFinish.mock.calls[0]![0]).toMatchObject({ ...builtinFboxConfig, delay_switch_value: 2500 });
  });

  it('locks a field that uses the default until "Use default" is unticked', async () => {
    setup(true);
    const input = screen.getByTestId('config-humidity_max') as HTMLInputElement;
    await waitFor(() => expect(input.disabled).toBe(true));
    fireEvent.click(screen.getByTestId('config-inherit-humidity_max'));
    await waitFor(() => expect(input.disabled).toBe(false));
    expect((screen.getByTestId('config-voltage_min') as HTMLInputElement).disabled).toBe(true);
  });
});
