import type { TaskStatus } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskFamily } from '../api-tasks';
import { TaskRowActions } from './TaskRowActions';

/** The row's calls, as a fake server records them. */
const sent: { url: string; body: Record<string, unknown> }[] = [];

beforeEach(() => {
  sent.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      sent.push({ url, body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown> });
      return Response.json({ code: 1, msg: 'ok', data: null });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderRow = (
  task: { status?: TaskStatus; switched_low_count?: number },
  family: TaskFamily = { family: 'temp' },
) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TaskRowActions
        task={{ id: 7, name: 'Oil guard', status: 'running', ...task }}
        family={family}
        access={{ manage: true, control: true }}
        onEdit={() => undefined}
        onDetail={() => undefined}
      />
    </QueryClientProvider>,
  );

/** Opens the confirmation of a row action. */
const open = async (action: 'stop' | 'delete') => {
  fireEvent.click(screen.getByTestId(`task-${action}`));
  return screen.findByTestId(`task-${action}-ok`);
};

/** The switch-back checkbox (antd puts the test id on its input or on its wrapper). */
const restoreBox = (action: 'stop' | 'delete') => {
  const box = screen.getByTestId(`task-${action}-restore`);
  return (box.tagName === 'INPUT' ? box : box.querySelector('input')) as HTMLInputElement;
};

// antd's first render in jsdom takes seconds.
describe('TaskRowActions: stopping or deleting a temperature task', () => {
  it('says how many miners stay in low mode and sends the switch-back choice (off unless ticked)', async () => {
    renderRow({ switched_low_count: 2 });
    let ok = await open('stop');
    expect(screen.getByText('2 miners this task switched to low power mode stay in low mode.')).toBeTruthy();
    expect(screen.getByText('Switch them back to high mode')).toBeTruthy();
    expect(restoreBox('stop').checked).toBe(false);
    fireEvent.click(ok);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      url: '/ff-plat-api/api/taskTemp/stop',
      body: { id: 7, restore: false },
    });

    ok = await open('stop');
    fireEvent.click(restoreBox('stop'));
    expect(restoreBox('stop').checked).toBe(true);
    fireEvent.click(ok);
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toMatchObject({ url: '/ff-plat-api/api/taskTemp/stop', body: { id: 7, restore: true } });

    // Ticked and unticked again before confirming: nothing is switched back.
    ok = await open('stop');
    expect(restoreBox('stop').checked).toBe(false);
    fireEvent.click(restoreBox('stop'));
    fireEvent.click(restoreBox('stop'));
    fireEvent.click(ok);
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2]).toMatchObject({ body: { id: 7, restore: false } });
  });

  it('offers the same on delete, in the singular for one miner', async () => {
    renderRow({ status: 'stopped', switched_low_count: 1 });
    const ok = await open('delete');
    expect(screen.getByText('1 miner this task switched to low power mode stays in low mode.')).toBeTruthy();
    fireEvent.click(restoreBox('delete'));
    expect(screen.getByText('Switch it back to high mode')).toBeTruthy();
    fireEvent.click(ok);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      url: '/ff-plat-api/api/taskTemp/delete',
      body: { id: 7, restore: true },
    });
  });

  it('says nothing about miners when the task left none in low mode', async () => {
    renderRow({ switched_low_count: 0 });
    const ok = await open('stop');
    expect(
      screen.getByText('Stop task Oil guard? It takes no action until it is started again.'),
    ).toBeTruthy();
    expect(screen.queryByText(/low power mode/)).toBeNull();
    expect(screen.queryByTestId('task-stop-restore')).toBeNull();
    fireEvent.click(ok);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ url: '/ff-plat-api/api/taskTemp/stop', body: { id: 7, restore: false } });
  });

  it('leaves reboot tasks as they were: no miner text, no restore in the body', async () => {
    renderRow({}, { family: 'reboot', kind: 'miner' });
    const ok = await open('stop');
    expect(screen.queryByText(/low power mode/)).toBeNull();
    fireEvent.click(ok);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe('/ff-plat-api/api/taskReboot/stop');
    expect('restore' in sent[0]!.body).toBe(false);
  });
});
