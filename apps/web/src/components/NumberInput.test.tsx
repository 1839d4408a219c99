import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import Form from 'antd/es/form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { schemaRule } from '../lib/form-rules';
import { NumberInput } from './NumberInput';

afterEach(cleanup);

// The web app's sources (tests run with the web app's folder as their root).
const src = join(import.meta.dirname, '..');

describe('NumberInput', () => {
  it('is the only number input of the web app, so no form can clamp what was typed', () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
    );
    const clamping = files.filter((file) => {
      const text = readFileSync(join(src, file), 'utf8');
      return /from 'antd\/es\/input-number'|\bInputNumber\b[^;]*from 'antd'/.test(text);
    });
    expect(clamping.map((file) => relative(src, join(src, file)))).toEqual(['components/NumberInput.tsx']);
  });

  it('keeps an out-of-range or fractional value as typed and says what is wrong on the field', async () => {
    const onFinish = vi.fn();
    const bounded = z.number().int().min(1).max(1000);
    const Harness = () => (
      <Form onFinish={onFinish}>
        <Form.Item name="n" label="Hashrate" rules={[schemaRule(bounded, { label: 'Hashrate' })]}>
          {/* Bounds given anyway (a cast) must not reach antd's input. */}
          <NumberInput {...({ min: 1, max: 1000, precision: 0 } as object)} data-testid="n" />
        </Form.Item>
        <button type="submit">submit</button>
      </Form>
    );
    render(<Harness />);
    const input = screen.getByTestId('n') as HTMLInputElement;
    for (const typed of ['0', '1001', '1.5']) {
      act(() => input.focus());
      fireEvent.change(input, { target: { value: typed } });
      fireEvent.focusOut(input);
      await act(() => fireEvent.click(screen.getByText('submit')));
      await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')).toBeTruthy());
      expect(input.value).toBe(typed);
    }
    expect(onFinish).not.toHaveBeenCalled();
  });
});
