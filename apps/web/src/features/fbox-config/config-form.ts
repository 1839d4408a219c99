import {
  type FboxConfig,
  type FboxConfigField,
  type FboxConfigValues,
  fboxConfigFields,
} from '@fbox/contracts';

/** The config form: a value per field, and per field whether it follows the defaults instead. */
export interface ConfigFormValues extends FboxConfigValues {
  inherit: Record<FboxConfigField, boolean>;
}

/** Form values of a box's configuration: effective values, inherited fields ticked. */
export const toFormValues = (config: FboxConfig): ConfigFormValues => ({
  ...config.values,
  inherit: Object.fromEntries(fboxConfigFields.map((field) => [field, config.own[field] === null])) as Record<
    FboxConfigField,
    boolean
  >,
});

/** The save body: own values as numbers, inherited fields as null (the server drops them). */
export const toSaveBody = (values: ConfigFormValues): Record<FboxConfigField, number | null> =>
  Object.fromEntries(
    fboxConfigFields.map((field) => [field, values.inherit[field] ? null : values[field]]),
  ) as Record<FboxConfigField, number | null>;

/** Fields whose effective value is not what the box last got (a mine default changed since). */
export const notApplied = (config: FboxConfig): FboxConfigField[] =>
  fboxConfigFields.filter((field) => config.values[field] !== config.applied[field]);
