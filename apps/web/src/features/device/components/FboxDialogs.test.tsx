import type { FboxDetail } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectArea } from '../../../lib/session';
import { FboxSettingDialog, intervalChoices } from './FboxDialogs';

/** The settings dialog against a fake server that records what is saved and acknowledges it. */
const saved: Array<{ url: string; body: Record<string, unknown> }> = [];

beforeEach(() => {
  saved.length = 0;
  selectArea({ id: 1, electricity_hz: 50 } as never);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      // The legacy family posts a form (output=json&…).
      saved.push({ url, body: Object.fromEntries(new URLSearchParams(String(init?.body ?? ''))) });
      return Response.json({ code: 1, msg: '', data: { command_id: 'c1', status: 'sent' } });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A box whose mine configuration set a 12 s interval and whose thresholds were never set. */
const box = {
  id: 7,
  name: 'Box 7',
  area_id: 1,
  voltage_min: 360,
  voltage_max: 400,
  thresholds: { temperature_max: -999, humidity_max: -999 },
  reporting_interval_s: 12,
} as unknown as FboxDetail;

describe('FboxSettingDialog', () => {
  it('offers the box’s own interval among the usual ones, in order', () => {
    expect(intervalChoices(12)).toEqual([5, 10, 12, 15, 30, 60]);
    expect(intervalChoices(30)).toEqual([5, 10, 15, 30, 60]);
  });

  it('opens valid: unset thresholds at their defaults, the 12 s interval as itself, saved unchanged', async () => {
    const onCommand = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <FboxSettingDialog fbox={box} onClose={() => undefined} onCommand={onCommand} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('12 s')).toBeTruthy();
    const temperature = screen.getByLabelText('Temperature threshold') as HTMLInputElement;
    const humidity = screen.getByLabelText('Humidity threshold') as HTMLInputElement;
    // Never set (-999): the built-in defaults, not the raw code and not empty.
    expect(temperature.value).toBe('45');
    expect(humidity.value).toBe('85');
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(onCommand).toHaveBeenCalledWith('c1', 'sent'));
    expect(saved).toHaveLength(1);
    expect(saved[0]!.body).toMatchObject({
      id: '7',
      reporting_interval: '12',
      temperature_max: '45',
      humidity_max: '85',
    });
  });
});
