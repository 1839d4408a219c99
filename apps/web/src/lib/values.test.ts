import { describe, expect, it } from 'vitest';
import { i18n, i18nReady, loadLanguage } from './i18n';
import { formatUptime, showEnergy, showHashrate, showTemperature } from './values';

describe('device value renderers', () => {
  it('shows uptime as days/hours/min/sec in the user language, -999 as a dash', async () => {
    await i18nReady;
    await loadLanguage('en');
    await loadLanguage('zh');
    await i18n.changeLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(formatUptime(t, 2 * 86_400 + 3 * 3600 + 4 * 60 + 5)).toBe('2 d 3 h 4 min 5 s');
    expect(formatUptime(t, 3605)).toBe('1 h 0 min 5 s');
    expect(formatUptime(t, 42)).toBe('42 s');
    expect(formatUptime(t, -999)).toBe('-');
    await i18n.changeLanguage('zh');
    expect(formatUptime(i18n.t.bind(i18n), 86_400 + 61)).toBe('1天0小时1分1秒');
    await i18n.changeLanguage('en');
  });

  it('scales hashrate TH/s → PH/s → EH/s and energy up to PWh', () => {
    expect(showHashrate(999)).toBe('999 TH/s');
    expect(showHashrate(1500)).toBe('1.5 PH/s');
    expect(showHashrate(2_000_000)).toBe('2 EH/s');
    expect(showHashrate(-999)).toBe('-');
    expect(showEnergy(1_250_000)).toBe('1.25 GWh');
    expect(showTemperature(-999)).toBe('-');
  });
});
