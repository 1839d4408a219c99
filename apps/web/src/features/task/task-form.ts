import {
  defaultHysteresis,
  editAllowed,
  type RebootKind,
  type RebootTask,
  RebootTaskAddBodySchema,
  type TaskStatus,
  type TempSource,
  type TempTask,
  TempTaskAddBodySchema,
  transitionAllowed,
} from '@fbox/contracts';
import type { Rule, RuleRender } from 'antd/es/form';
import type { Dayjs } from 'dayjs';
import type { z } from 'zod';
import { localizeRule, schemaRule } from '../../lib/form-rules';
import { fromPickerValue, toPickerValue } from '../../lib/zoned-time';
import type { TaskAccess } from './access';

/*
 * The task forms' rules and value mapping, kept out of the dialogs so they can be tested: every field
 * is checked with the contract's own schema (spec §5), plus "start earlier than end" across fields.
 */

export const rebootShape = RebootTaskAddBodySchema.shape;
export const tempShape = TempTaskAddBodySchema.shape;

const filled = (value: unknown) => value !== undefined && value !== null && value !== '';

/** "<Field> is required", in the user's language. */
export const requiredRule = (label: string): Rule => ({
  required: true,
  message: localizeRule('rule.required', label),
});

/** Rules of one field: required and the contract's schema. */
export const fieldRules = (schema: z.ZodType, label: string): Rule[] => [
  requiredRule(label),
  schemaRule(schema, { label, when: filled }),
];

/** The group list: the schema alone says "choose at least one miner group" (spec §5). */
export const groupRules = (schema: z.ZodType, label: string): Rule[] => [schemaRule(schema, { label })];

/** `group_ids.0` → `group_ids`: a server error of a list item is shown on the list's field. */
export const topLevelField = (field: string): string => field.split('.')[0] ?? field;

/** The end time must come after the start time (reported on the end, as the server does). */
export const endAfterStartRule: RuleRender = ({ getFieldValue }) => ({
  validator: async (_rule, end: Dayjs | null | undefined) => {
    const start = getFieldValue('start_at') as Dayjs | null | undefined;
    if (start && end && !start.isBefore(end)) throw new Error(localizeRule('rule.startBeforeEnd'));
  },
});

/** What the reboot form holds: durations in seconds, times as picker values in the user's zone. */
export interface RebootFormValues {
  name: string;
  group_ids: number[];
  hashrate_threshold: number;
  duration_seconds: number;
  reboot_interval_seconds: number;
  reboot_limit: number;
  simultaneous_count: number;
  batch_interval_seconds: number;
  power_off_seconds?: number;
  start_at: Dayjs;
  end_at: Dayjs;
}

export type RebootField = keyof RebootFormValues;

const rebootCommonFields: RebootField[] = [
  'name',
  'group_ids',
  'hashrate_threshold',
  'duration_seconds',
  'reboot_interval_seconds',
  'reboot_limit',
  'simultaneous_count',
  'batch_interval_seconds',
  'start_at',
  'end_at',
];

/** The fields a reboot task of a kind has: the PDU's off-to-on time only for PDU tasks. */
export const rebootFormFields = (kind: RebootKind): RebootField[] =>
  kind === 'pdu' ? [...rebootCommonFields, 'power_off_seconds'] : rebootCommonFields;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A new task starts now (this minute) and runs for a week. */
const defaultWindow = (now: number, zone: string | null) => {
  const start = Math.floor(now / 60_000) * 60_000;
  return { start_at: toPickerValue(start, zone), end_at: toPickerValue(start + 7 * DAY, zone) };
};

export const rebootInitialValues = (
  kind: RebootKind,
  task: RebootTask | undefined,
  zone: string | null,
  now: number,
): Partial<RebootFormValues> =>
  task
    ? {
        name: task.name,
        group_ids: task.groups.map((group) => group.id),
        hashrate_threshold: task.hashrate_threshold,
        duration_seconds: task.duration_seconds,
        reboot_interval_seconds: task.reboot_interval_seconds,
        reboot_limit: task.reboot_limit,
        simultaneous_count: task.simultaneous_count,
        batch_interval_seconds: task.batch_interval_seconds,
        power_off_seconds: task.power_off_seconds ?? undefined,
        start_at: toPickerValue(task.start_at, zone),
        end_at: toPickerValue(task.end_at, zone),
      }
    : {
        group_ids: [],
        duration_seconds: 600,
        reboot_interval_seconds: 1800,
        reboot_limit: 3,
        simultaneous_count: 10,
        batch_interval_seconds: 60,
        power_off_seconds: kind === 'pdu' ? 30 : undefined,
        ...defaultWindow(now, zone),
      };

/** The request body of a reboot form (without area and id). */
export const toRebootBody = (kind: RebootKind, values: RebootFormValues, zone: string | null) => {
  const { power_off_seconds, start_at, end_at, ...rest } = values;
  return {
    kind,
    ...rest,
    name: rest.name.trim(),
    start_at: fromPickerValue(start_at, zone),
    end_at: fromPickerValue(end_at, zone),
    ...(kind === 'pdu' ? { power_off_seconds } : {}),
  };
};

export interface TempFormValues {
  name: string;
  group_ids: number[];
  source: TempSource;
  threshold: number;
  duration_seconds: number;
  hysteresis: number;
  start_at: Dayjs;
  end_at: Dayjs;
}

export const tempInitialValues = (
  task: TempTask | undefined,
  zone: string | null,
  now: number,
): Partial<TempFormValues> =>
  task
    ? {
        name: task.name,
        group_ids: task.groups.map((group) => group.id),
        source: task.source,
        threshold: task.threshold,
        duration_seconds: task.duration_seconds,
        hysteresis: task.hysteresis,
        start_at: toPickerValue(task.start_at, zone),
        end_at: toPickerValue(task.end_at, zone),
      }
    : {
        group_ids: [],
        source: 'tank_oil_outlet',
        duration_seconds: 300,
        hysteresis: defaultHysteresis,
        ...defaultWindow(now, zone),
      };

export const toTempBody = (values: TempFormValues, zone: string | null) => ({
  ...values,
  name: values.name.trim(),
  start_at: fromPickerValue(values.start_at, zone),
  end_at: fromPickerValue(values.end_at, zone),
});

/** A row action of the task queues. */
export type TaskRowAction = 'start' | 'stop' | 'edit' | 'delete';

/**
 * The actions a queue row offers: what the status allows (the contract's `transitionAllowed` and
 * `editAllowed`) and the caller may do (start/stop need taskControl; edit/delete need manage).
 */
export const taskRowActions = (status: TaskStatus, access: TaskAccess): TaskRowAction[] => {
  const actions: TaskRowAction[] = [];
  if (access.control && transitionAllowed(status, 'start')) actions.push('start');
  if (access.control && transitionAllowed(status, 'stop')) actions.push('stop');
  if (access.manage && editAllowed(status)) actions.push('edit');
  if (access.manage && transitionAllowed(status, 'delete')) actions.push('delete');
  return actions;
};
