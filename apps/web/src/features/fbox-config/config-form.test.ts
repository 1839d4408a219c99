import { builtinFboxConfig, type FboxConfig } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { voltageOrderOk } from '../../lib/form-rules';
import { notApplied, toFormValues, toSaveBody } from './config-form';

const config: FboxConfig = {
  fbox_id: 1,
  area_id: 1,
  fbox_name: 'Box',
  status: 'online',
  values: { ...builtinFboxConfig, temperature_max: 50, reporting_interval: 15 },
  sources: {
    voltage_min: 'builtin',
    voltage_max: 'builtin',
    temperature_max: 'fbox',
    humidity_max: 'builtin',
    delay_switch_value: 'account',
    reporting_interval: 'mine',
  },
  own: {
    voltage_min: null,
    voltage_max: null,
    temperature_max: 50,
    humidity_max: null,
    delay_switch_value: null,
    reporting_interval: null,
  },
  applied: { ...builtinFboxConfig, temperature_max: 50 },
  last_command: null,
};

describe('FBOX config form', () => {
  it('ticks the inherited fields and keeps own values', () => {
    const values = toFormValues(config);
    expect(values.inherit).toEqual({
      voltage_min: true,
      voltage_max: true,
      temperature_max: false,
      humidity_max: true,
      delay_switch_value: true,
      reporting_interval: true,
    });
    expect(values.temperature_max).toBe(50);
  });

  it('sends inherited fields as null and own ones as numbers', () => {
    const values = toFormValues(config);
    const inherit = {
      ...values.inherit,
      voltage_max: false,
      humidity_max: false,
      delay_switch_value: false,
      reporting_interval: false,
    };
    const body = toSaveBody({ ...values, inherit, voltage_max: 410 });
    expect(body).toEqual({
      voltage_min: null,
      voltage_max: 410,
      temperature_max: 50,
      humidity_max: builtinFboxConfig.humidity_max,
      delay_switch_value: 0,
      reporting_interval: 15,
    });
  });

  it('names the fields the box has not been sent yet', () => {
    expect(notApplied(config)).toEqual(['reporting_interval']);
    expect(notApplied({ ...config, applied: config.values })).toEqual([]);
  });

  it('wants the minimum voltage below the maximum', () => {
    expect(voltageOrderOk(350, 400)).toBe(true);
    expect(voltageOrderOk(400, 400)).toBe(false);
    expect(voltageOrderOk(410, 400)).toBe(false);
    expect(voltageOrderOk(undefined, 400)).toBe(true);
  });
});
