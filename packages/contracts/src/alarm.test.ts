import { describe, expect, it } from 'vitest';
import { AlertRuleFieldsSchema, defaultAlertRules } from './alarm.js';

const messages = (input: unknown) =>
  AlertRuleFieldsSchema.safeParse(input).error?.issues.map((i) => [i.path.join('.'), i.message]);

describe('alert rule fields', () => {
  it('accept every default rule as it is', () => {
    for (const rule of defaultAlertRules) expect(AlertRuleFieldsSchema.parse(rule)).toEqual(rule);
  });

  it('need a threshold in the metric’s range, and a voltage range whose minimum is below its maximum', () => {
    const base = { level: 2, sustain_seconds: 60 };
    expect(messages({ ...base, metric: 'chip_temp_high' })).toEqual([['threshold', 'rule.required']]);
    expect(messages({ ...base, metric: 'liquid_level_low', threshold: 120 })).toEqual([
      ['threshold', 'rule.range {"min":0,"max":100}'],
    ]);
    expect(
      messages({ ...base, metric: 'fbox_voltage_out_of_range', threshold: 418, threshold_max: 342 }),
    ).toEqual([['threshold_max', 'rule.voltageMinBelowMax']]);
    expect(messages({ ...base, metric: 'cpu_high', threshold: 1 })?.[0]).toEqual([
      'metric',
      'rule.alertMetric',
    ]);
    expect(messages({ ...base, metric: 'miner_offline', level: 4 })).toEqual([['level', 'rule.alertLevel']]);
  });

  it('read form text and keep no threshold or margin for a state metric', () => {
    expect(
      AlertRuleFieldsSchema.parse({
        metric: 'miner_fault',
        level: '1',
        threshold: '5',
        sustain_seconds: '0',
        hysteresis: '3',
      }),
    ).toEqual({
      metric: 'miner_fault',
      level: 1,
      threshold: null,
      threshold_max: null,
      sustain_seconds: 0,
      hysteresis: 0,
      enabled: true,
    });
  });
});
