import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectArea } from '../../../lib/session';
import { timeZoneStore } from '../../../lib/time';
import { MeterReadingDialog } from './MeterReadingDialog';

/** The dialog against a fake server that records what is posted and answers as told. */
const posted: Record<string, string>[] = [];
let answer: unknown;

beforeEach(() => {
  posted.length = 0;
  selectArea({ id: 1 } as never);
  timeZoneStore.set('UTC+8');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      posted.push(Object.fromEntries(new URLSearchParams(String(init?.body ?? ''))));
      return Response.json(answer);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const open = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MeterReadingDialog fboxId={7} no={2} onClose={() => undefined} />
    </QueryClientProvider>,
  );

const fill = async () => {
  const at = screen.getByLabelText('Read at') as HTMLInputElement;
  fireEvent.mouseDown(at);
  fireEvent.change(at, { target: { value: '2026-11-25 10:30' } });
  fireEvent.keyDown(at, { key: 'Enter', code: 'Enter' });
  fireEvent.change(screen.getByLabelText('Reading (kWh)'), { target: { value: '1234.5' } });
  fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Read on site' } });
};

describe('MeterReadingDialog', () => {
  it('says what is missing on each field and posts nothing', async () => {
    open();
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    expect(await screen.findByText('Read at is required')).toBeTruthy();
    expect(screen.getByText('Reading (kWh) is required')).toBeTruthy();
    expect(screen.getByText('Reason is required')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('posts the reading at the instant the user’s zone means, and shows the server’s refusal on its field', async () => {
    answer = {
      code: -2,
      msg: 'Reading (kWh): is below …',
      data: {
        errors: [
          {
            field: 'reading_kwh',
            rule: 'rule.readingBelowPrevious {"reading":1300}',
            message: 'is below the meter’s reading before (1300 kWh)',
          },
        ],
      },
    };
    open();
    await fill();
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      fbox_id: '7',
      meter_no: '2',
      reading_kwh: '1234.5',
      // 10:30 at UTC+8 is 02:30 UTC.
      reading_at: String(Date.UTC(2026, 10, 25, 2, 30)),
      reason: 'Read on site',
    });
    expect(
      await screen.findByText(/Reading \(kWh\) is below the meter's reading before \(1300 kWh\)/),
    ).toBeTruthy();
  });
});
