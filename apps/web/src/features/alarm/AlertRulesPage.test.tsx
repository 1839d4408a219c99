import { type AlertRule, operatorRules, type RuleList } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { MachineAlertRulesPage, TankAlertRulesPage } from './AlertRulesPage';

const rules: AlertRule[] = [
  {
    id: 9,
    area_id: 0,
    metric: 'chip_temp_high',
    level: 2,
    threshold: 90,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 3,
    enabled: true,
  },
  {
    id: 10,
    area_id: 0,
    metric: 'miner_offline',
    level: 1,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 0,
    hysteresis: 0,
    enabled: false,
  },
];

/** A request body as the server reads it: form fields, each JSON where it parses. */
const bodyOf = (body: unknown): Record<string, unknown> => {
  if (typeof body !== 'string') return {};
  if (body.startsWith('{')) return JSON.parse(body);
  const parse = (v: string) => {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  };
  return Object.fromEntries([...new URLSearchParams(body)].map(([k, v]) => [k, parse(v)]));
};

/** The page's calls, as a fake server records them. */
const sent: { path: string; body: Record<string, unknown> }[] = [];
let access: RuleList;

beforeEach(() => {
  sent.length = 0;
  access = { role: 'master', rules: [...operatorRules], all: [...operatorRules] };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0]!;
      sent.push({ path, body: bodyOf(init?.body) });
      if (path === '/index/fbox.oillist/get_alert_setting')
        return Response.json({ code: 1, msg: 'ok', data: url.includes('target=miner') ? rules : [] });
      if (path === '/index/fbox.user/getrule') return Response.json({ code: 1, msg: 'ok', data: access });
      if (path === '/index/fbox.oillist/set_alert_setting')
        return Response.json({ code: 1, msg: 'Modified', data: { ...rules[0], ...sent.at(-1)!.body } });
      return Response.json({ code: 1, msg: 'ok', data: null });
    }),
  );
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLanguage('en');
});

const renderPage = (page = <MachineAlertRulesPage />) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  );

const saves = () => sent.filter((r) => r.path === '/index/fbox.oillist/set_alert_setting');

// antd's first render in jsdom takes seconds.
describe('AlertRulesPage', () => {
  it("lists the target's rules with their condition, sustain time and margin", async () => {
    renderPage();
    expect(await screen.findByText('Chip temperature high')).toBeTruthy();
    expect(screen.getByText('above 90 °C')).toBeTruthy();
    expect(screen.getByText('1 min 0 s')).toBeTruthy();
    expect(screen.getByText('3 °C')).toBeTruthy();
    expect(screen.getByText('when reported')).toBeTruthy();
    expect(screen.getByText('At once')).toBeTruthy();
  });

  it('turns a rule off with its switch, sending the whole rule', async () => {
    renderPage();
    const toggle = (await screen.findByTestId('alert-rule-switch-9')) as HTMLButtonElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    fireEvent.click(toggle);
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]!.body).toMatchObject({
      id: 9,
      metric: 'chip_temp_high',
      threshold: 90,
      enabled: false,
    });
  });

  it('refuses a threshold beyond its range on the field, sending nothing, then adds the rule', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('alert-rule-add', {}, { timeout: 5000 }));
    const form = await screen.findByTestId('alert-rule-form');
    const threshold = within(form).getByTestId('alert-rule-threshold');
    fireEvent.change(threshold, { target: { value: '151' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    expect(await screen.findByText('Threshold must be a number from 0 to 150')).toBeTruthy();
    expect(saves()).toEqual([]);
    fireEvent.change(threshold, { target: { value: '95' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]!.body).toMatchObject({ metric: 'chip_temp_high', threshold: 95, sustain_seconds: 60 });
    expect(saves()[0]!.body).not.toHaveProperty('id');
  });

  it('shows the rules read-only to an operator without the alert-rules permission', async () => {
    access = { role: 'operator', rules: ['minerControl'], all: [...operatorRules] };
    renderPage();
    expect(await screen.findByText('Chip temperature high')).toBeTruthy();
    await waitFor(() => expect(sent.some((r) => r.path === '/index/fbox.user/getrule')).toBe(true));
    expect(screen.queryByTestId('alert-rule-add')).toBeNull();
    expect(screen.queryByTestId('alert-rule-edit-9')).toBeNull();
    expect((screen.getByTestId('alert-rule-switch-9') as HTMLButtonElement).disabled).toBe(true);
  });

  it('says so when a target has no rules, in Chinese too', async () => {
    await changeLanguage('zh');
    renderPage(<TankAlertRulesPage />);
    expect(await screen.findByText('此类设备暂无规则')).toBeTruthy();
    expect(screen.getByText('油箱告警规则')).toBeTruthy();
  });
});
