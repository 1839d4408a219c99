import type { FieldError } from '@fbox/contracts';
import { act, cleanup, render, screen } from '@testing-library/react';
import Form, { type FormInstance } from 'antd/es/form';
import Input from 'antd/es/input';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { setMessageApi } from './feedback';
import { type ServerErrorOptions, showServerErrors } from './server-errors';

const validation = (...fieldErrors: FieldError[]) =>
  new ApiError('Parameter error', 'business', -2, fieldErrors);

const rule = (field: string, message: string): FieldError => ({ field, rule: 'custom', message });

let form: FormInstance;
const Profile = () => {
  [form] = Form.useForm();
  return (
    <Form form={form}>
      <Form.Item name="nickname" label="Nickname">
        <Input />
      </Form.Item>
      <Form.Item name="mobileNumber" label="Phone">
        <Input />
      </Form.Item>
      <Form.Item name={['emailList', 0]} label="Email">
        <Input />
      </Form.Item>
    </Form>
  );
};

const show = (error: unknown, options?: ServerErrorOptions) =>
  act(async () => showServerErrors(form, error, options));

describe('showServerErrors', () => {
  const error = vi.fn();
  beforeEach(() => {
    setMessageApi({ success: vi.fn(), error, warning: vi.fn(), info: vi.fn() } as never);
    render(<Profile />);
  });
  afterEach(() => {
    cleanup();
    setMessageApi(null);
    error.mockReset();
  });

  it('puts each field error on its field, localized when it is a rule key', async () => {
    await show(
      validation(rule('nickname', 'Taken'), { field: 'mobileNumber', rule: 'rule.required', message: '' }),
    );
    expect(form.getFieldError('nickname')).toEqual(['Taken']);
    expect(form.getFieldError('mobileNumber')).toEqual(['Is required']);
    expect(await screen.findByText('Taken')).toBeTruthy();
  });

  it("maps the server's names onto the form's with the form's mapping and prefix", async () => {
    await show(validation(rule('mobile', 'Bad phone')), {
      field: (field) => (field === 'mobile' ? 'mobileNumber' : field),
    });
    await show(validation(rule('pushContent.emailList.0', 'Bad email')), { prefix: 'pushContent' });
    expect(form.getFieldError('mobileNumber')).toEqual(['Bad phone']);
    expect(form.getFieldError(['emailList', 0])).toEqual(['Bad email']);
  });

  it('toasts errors for fields the form lacks, and only those', async () => {
    await show(validation(rule('nickname', 'Taken'), rule('area_ids', 'No such mine')));
    expect(error.mock.calls.map(([text]) => text)).toEqual(['No such mine']);
  });

  it('leaves the form alone for failures that are not field errors', async () => {
    await show(new Error('boom'));
    await show(new ApiError('Network error', 'network'));
    expect(form.getFieldsError().flatMap((field) => field.errors)).toEqual([]);
    expect(error).not.toHaveBeenCalled();
  });
});
