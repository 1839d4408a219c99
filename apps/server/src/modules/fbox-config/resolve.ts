import {
  builtinFboxConfig,
  type ConfigSource,
  type FboxConfigField,
  type FboxConfigValues,
  fboxConfigFields,
} from '@fbox/contracts';
import type { ConfigNumbers, OwnNumbers } from './fbox-config.repository.js';

/** No own values: everything inherited. */
export const noOwnValues = (): OwnNumbers =>
  Object.fromEntries(fboxConfigFields.map((f) => [f, null])) as OwnNumbers;

/** The numbers of a row that has every field (defaults) or some (own values). */
export const pickFields = <T>(row: Record<FboxConfigField, T>): Record<FboxConfigField, T> =>
  Object.fromEntries(fboxConfigFields.map((f) => [f, row[f]])) as Record<FboxConfigField, T>;

/**
 * The effective configuration of an FBOX: its own value, else its mine's default, else — for the
 * Delay Switch — the account's, else the built-in; with where each value came from.
 */
export const resolveConfig = (
  own: OwnNumbers,
  mine: ConfigNumbers | undefined,
  accountDelay: number,
): { values: FboxConfigValues; sources: Record<FboxConfigField, ConfigSource> } => {
  const values = {} as FboxConfigValues;
  const sources = {} as Record<FboxConfigField, ConfigSource>;
  for (const field of fboxConfigFields) {
    const mine_ = mine?.[field];
    if (own[field] !== null) {
      values[field] = own[field];
      sources[field] = 'fbox';
    } else if (mine_ !== undefined) {
      values[field] = mine_;
      sources[field] = 'mine';
    } else if (field === 'delay_switch_value') {
      values[field] = accountDelay;
      sources[field] = 'account';
    } else {
      values[field] = builtinFboxConfig[field];
      sources[field] = 'builtin';
    }
  }
  return { values, sources };
};

/** The `fbox.config` command's parameters for a configuration (protocol names and units). */
export const configCommandParams = (values: FboxConfigValues): Record<string, number> => ({
  voltage_min: values.voltage_min,
  voltage_max: values.voltage_max,
  temperature_max: values.temperature_max,
  humidity_max: values.humidity_max,
  reporting_interval_s: values.reporting_interval,
  delay_switch_ms: values.delay_switch_value,
});
