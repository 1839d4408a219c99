import { endpoints, type TankDetail } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TankControls } from './TankControls';

/** What the fake server was asked to do (tank commands), in order. */
const sent: { path: string; body: string }[] = [];

beforeEach(() => {
  sent.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url.startsWith(endpoints.ruleList.path))
        return Response.json({ code: 1, msg: '', data: { role: 'master', rules: [], all: [] } });
      // The controls follow a sent command's progress; that poll is not a command.
      if (url.startsWith(endpoints.commandStatus.path)) return Response.json({ code: 1, msg: '', data: [] });
      sent.push({ path: url, body: String(init?.body ?? '') });
      return Response.json({ code: 1, msg: '', data: { command_id: 'c1', status: 'sent' } });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const tank = (control_mode: 'auto' | 'manual'): TankDetail => ({
  id: 4,
  name: 'T-1',
  no: 1,
  work_number: '',
  fbox_id: 2,
  fbox_name: 'Box',
  status: 'online',
  oil_in_temp: 40,
  oil_out_temp: 45,
  liquid_level: 80,
  energy_saving: false,
  control_mode,
  short_circuit: false,
  miner_count: 0,
  miner_online: 0,
  hashrate: 0,
  area_id: 1,
  fbox_status: 'online',
  fans: [
    { no: 1, value: 4200, percent: 84 },
    { no: 2, value: 0, percent: 0 },
  ],
  oil_pump_efficiency: 0,
  oil_pump_percent: null,
  water_in_temp: 20,
  water_speed: 1,
  main_temperatures: [],
  miner_offline: 0,
  electricity_hz: 50,
  updated_at: null,
});

const renderControls = (mode: 'auto' | 'manual') =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TankControls tank={tank(mode)} />
    </QueryClientProvider>,
  );

// antd's first render in jsdom takes seconds.
describe('TankControls', () => {
  it('asks before switching the control mode, and sends it only on OK', async () => {
    renderControls('auto');
    await waitFor(() =>
      expect(screen.getByText('Manual').closest('label')?.className).not.toMatch(/disabled/),
    );
    fireEvent.click(screen.getByText('Manual'));
    expect((await screen.findAllByText('Switch tank T-1 to Manual control?')).length).toBeGreaterThan(0);
    expect(sent).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.path).toContain(endpoints.tankControllerSwitch.path);
    expect(sent[0]!.body).toContain('control_mode=manual');
  });

  it('asks before switching a fan off, warns of less cooling, and sends nothing on Cancel', async () => {
    renderControls('manual');
    await waitFor(() => expect(screen.getByTestId('tank-fan-1-off').hasAttribute('disabled')).toBe(false));
    // Each fan says whether it turns, not only its drive output.
    expect(screen.getByText('Running')).toBeTruthy();
    expect(screen.getByText('Stopped')).toBeTruthy();
    fireEvent.click(screen.getByTestId('tank-fan-1-off'));
    expect((await screen.findAllByText('Turn fan 1 Off?')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Less cooling: the oil temperature will rise.').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByTestId('tank-fan-2-on'));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.path).toContain(endpoints.tankControllerSwitchV2.path);
    expect(sent[0]!.body).toMatch(/no=2.*status=on|status=on.*no=2/);
  });
});
