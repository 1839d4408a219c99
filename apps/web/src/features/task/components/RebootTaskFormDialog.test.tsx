import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RebootTaskFormDialog } from './RebootTaskFormDialog';
import { TempTaskFormDialog } from './TempTaskFormDialog';

/** The dialog against a fake server answering the group list and recording what is saved. */
const saved: unknown[] = [];

beforeEach(() => {
  saved.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
      if (url.endsWith('/minerGroup/list'))
        return Response.json({
          code: 1,
          msg: '',
          data: {
            items: [
              {
                id: 5,
                name: 'Hot rack',
                type: 'miner_reboot',
                miner_count: 12,
                task_count: 0,
                created_at: 0,
                updated_at: 0,
              },
            ],
            total: 1,
            page: 1,
            limit: 500,
          },
        });
      saved.push({ url, body });
      return Response.json({
        code: -2,
        msg: 'invalid',
        data: { errors: [{ field: 'end_at', rule: 'rule.startBeforeEnd', message: 'rule.startBeforeEnd' }] },
      });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderDialog = (kind: 'miner' | 'pdu') =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RebootTaskFormDialog kind={kind} onClose={() => undefined} />
    </QueryClientProvider>,
  );

// antd's first render in jsdom takes seconds.
describe('RebootTaskFormDialog', () => {
  it('asks for the PDU off-to-on time only on PDU tasks', async () => {
    renderDialog('pdu');
    expect(await screen.findByText('Time between power off and on')).toBeTruthy();
    cleanup();
    renderDialog('miner');
    await screen.findByText('Hashrate condition');
    expect(screen.queryByText('Time between power off and on')).toBeNull();
  });

  it('refuses to save without a name, a group and a hashrate condition, and sends nothing', async () => {
    renderDialog('miner');
    fireEvent.click(await screen.findByTestId('task-form-save'));
    expect(await screen.findByText('Task name is required')).toBeTruthy();
    expect(screen.getByText('Choose at least one miner group')).toBeTruthy();
    expect(screen.getByText('Hashrate condition is required')).toBeTruthy();
    expect(saved).toEqual([]);
  });

  it('saves a filled form and shows the server field errors on their fields', async () => {
    renderDialog('miner');
    const input = (testId: string) => {
      const field = screen.getByTestId(testId);
      return field.tagName === 'INPUT' ? field : (field.querySelector('input') as HTMLElement);
    };
    fireEvent.change(await screen.findByTestId('task-form-name'), { target: { value: 'Sagging' } });
    fireEvent.change(input('task-form-hashrate'), { target: { value: '90' } });
    const groups = screen.getByTestId('task-form-groups');
    fireEvent.mouseDown(groups.querySelector('.ant-select-selector') ?? groups);
    fireEvent.click(await screen.findByText('Hot rack (12 miners)'));
    fireEvent.click(screen.getByTestId('task-form-save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      url: '/ff-plat-api/api/taskReboot/add',
      body: { kind: 'miner', name: 'Sagging', hashrate_threshold: 90, group_ids: [5], reboot_limit: 3 },
    });
    expect('power_off_seconds' in (saved[0] as { body: object }).body).toBe(false);
    // The fake server refused the end time: its message sits under the End time field.
    expect(await screen.findByText('Start must be earlier than end')).toBeTruthy();
  });

  it('keeps numbers out of range as typed and refuses them, sending nothing', async () => {
    renderDialog('miner');
    const input = (testId: string) => {
      const field = screen.getByTestId(testId);
      return (field.tagName === 'INPUT' ? field : field.querySelector('input')) as HTMLInputElement;
    };
    await screen.findByTestId('task-form-name');
    for (const [testId, value] of [
      ['task-form-hashrate', '0'],
      ['task-form-limit', '0'],
    ] as const) {
      act(() => input(testId).focus());
      fireEvent.change(input(testId), { target: { value } });
      fireEvent.focusOut(input(testId));
    }
    fireEvent.click(screen.getByTestId('task-form-save'));
    const help = (field: string) =>
      document.getElementById(`rebootTaskForm-miner_${field}_help`)?.textContent ?? '';
    await waitFor(() => expect(help('hashrate_threshold')).toMatch(/1.*1000/));
    expect(help('reboot_limit')).toMatch(/Maximum reboot count must be/);
    expect(input('task-form-hashrate').value).toBe('0');
    expect(input('task-form-limit').value).toBe('0');
    act(() => input('task-form-hashrate').focus());
    fireEvent.change(input('task-form-hashrate'), { target: { value: '1001' } });
    fireEvent.focusOut(input('task-form-hashrate'));
    expect(input('task-form-hashrate').value).toBe('1001');
    expect(saved).toEqual([]);
  });

  it('keeps a temperature below 10 °C as typed and refuses it', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <TempTaskFormDialog onClose={() => undefined} />
      </QueryClientProvider>,
    );
    const field = await screen.findByTestId('task-form-threshold');
    const input = (field.tagName === 'INPUT' ? field : field.querySelector('input')) as HTMLInputElement;
    act(() => input.focus());
    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.focusOut(input);
    fireEvent.click(screen.getByTestId('task-form-save'));
    await waitFor(() =>
      expect(document.querySelector('#tempTaskForm_threshold_help, [id$="threshold_help"]')).toBeTruthy(),
    );
    expect(input.value).toBe('5');
    expect(saved).toEqual([]);
  });
});
