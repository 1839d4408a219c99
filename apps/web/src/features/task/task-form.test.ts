import { type TaskStatus, taskStatuses } from '@fbox/contracts';
import type { Rule, RuleObject } from 'antd/es/form';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { fromPickerValue, toPickerValue } from '../../lib/zoned-time';
import {
  endAfterStartRule,
  fieldRules,
  groupRules,
  type RebootFormValues,
  rebootFormFields,
  rebootInitialValues,
  rebootShape,
  requiredRule,
  taskRowActions,
  tempShape,
  topLevelField,
  toRebootBody,
  toTempBody,
} from './task-form';

/** Runs a field's rules as antd would (required first, then validators); the error texts. */
const errorsOf = async (rules: Rule[], value: unknown, values: Record<string, unknown> = {}) => {
  const errors: string[] = [];
  for (const entry of rules) {
    const rule: RuleObject =
      typeof entry === 'function' ? entry({ getFieldValue: (name: string) => values[name] } as never) : entry;
    const empty =
      value === undefined || value === null || value === '' || (Array.isArray(value) && !value.length);
    if (rule.required && empty) {
      errors.push(String(rule.message));
      continue;
    }
    try {
      await rule.validator?.(rule, value, () => undefined);
    } catch (error) {
      errors.push((error as Error).message);
    }
  }
  return errors;
};

const at = (text: string) => dayjs(text, 'YYYY-MM-DD HH:mm');

describe('task form rules (spec §5, mirroring the contract)', () => {
  it('keeps the hashrate condition within 1 to 1000 TH/s and requires it', async () => {
    const rules = fieldRules(rebootShape.hashrate_threshold, 'Hashrate condition');
    expect(await errorsOf(rules, 1)).toEqual([]);
    expect(await errorsOf(rules, 1000)).toEqual([]);
    expect(await errorsOf(rules, 0)).toEqual(['Hashrate condition must be a number from 1 to 1000']);
    expect(await errorsOf(rules, 1000.5)).toEqual(['Hashrate condition must be a number from 1 to 1000']);
    expect(await errorsOf(rules, undefined)).toEqual(['Hashrate condition is required']);
  });

  it('needs a reboot count of at least 1, a name of at most 50 characters and a duration', async () => {
    expect(await errorsOf(fieldRules(rebootShape.reboot_limit, 'Max'), 0)).toHaveLength(1);
    expect(await errorsOf(fieldRules(rebootShape.reboot_limit, 'Max'), 1)).toEqual([]);
    expect(await errorsOf(fieldRules(rebootShape.name, 'Task name'), 'x'.repeat(50))).toEqual([]);
    expect(await errorsOf(fieldRules(rebootShape.name, 'Task name'), 'x'.repeat(51))).toEqual([
      'Task name must be at most 50 characters',
    ]);
    expect(await errorsOf(fieldRules(rebootShape.duration_seconds, 'Duration'), undefined)).toEqual([
      'Duration is required',
    ]);
    expect(await errorsOf(fieldRules(rebootShape.simultaneous_count, 'Count'), 0)).toHaveLength(1);
  });

  it('offers only the interval options of spec §9 for the reboot interval', async () => {
    const rules = fieldRules(rebootShape.reboot_interval_seconds, 'Reboot interval');
    expect(await errorsOf(rules, 1800)).toEqual([]);
    expect(await errorsOf(rules, 45)).toEqual([
      'Reboot interval must be 30 s, 1, 2, 5, 15 or 30 min, 1 or 2 h',
    ]);
  });

  it('needs a temperature of at least 10 °C', async () => {
    const rules = fieldRules(tempShape.threshold, 'Temperature');
    expect(await errorsOf(rules, 10)).toEqual([]);
    expect(await errorsOf(rules, 9.5)).toEqual(['Temperature must be at least 10']);
  });

  it('needs at least one group', async () => {
    const rules = groupRules(rebootShape.group_ids, 'Miner groups');
    expect(await errorsOf(rules, [])).toEqual(['Choose at least one miner group']);
    expect(await errorsOf(rules, undefined)).toEqual(['Choose at least one miner group']);
    expect(await errorsOf(rules, [3])).toEqual([]);
  });

  it('needs start and end, the start earlier than the end', async () => {
    const end = [requiredRule('End time'), endAfterStartRule];
    const start = at('2026-05-01 10:00');
    expect(await errorsOf(end, undefined, { start_at: start })).toEqual(['End time is required']);
    expect(await errorsOf(end, at('2026-05-01 09:59'), { start_at: start })).toEqual([
      'Start must be earlier than end',
    ]);
    expect(await errorsOf(end, at('2026-05-01 10:00'), { start_at: start })).toEqual([
      'Start must be earlier than end',
    ]);
    expect(await errorsOf(end, at('2026-05-01 10:01'), { start_at: start })).toEqual([]);
    // No start yet: the start's own rule reports it, not the end.
    expect(await errorsOf(end, at('2026-05-01 10:01'))).toEqual([]);
  });
});

describe('reboot task form values', () => {
  const values: RebootFormValues = {
    name: '  Sagging miners ',
    group_ids: [4],
    hashrate_threshold: 80,
    duration_seconds: 600,
    reboot_interval_seconds: 1800,
    reboot_limit: 3,
    simultaneous_count: 5,
    batch_interval_seconds: 60,
    power_off_seconds: 30,
    start_at: at('2026-05-01 08:00'),
    end_at: at('2026-05-08 08:00'),
  };

  it('shows the PDU off-to-on time only for PDU tasks', () => {
    expect(rebootFormFields('pdu')).toContain('power_off_seconds');
    expect(rebootFormFields('miner')).not.toContain('power_off_seconds');
    expect(rebootInitialValues('pdu', undefined, 'UTC+0', 0).power_off_seconds).toBe(30);
    expect(rebootInitialValues('miner', undefined, 'UTC+0', 0).power_off_seconds).toBeUndefined();
  });

  it('sends the PDU field for PDU tasks only, and times as instants of the user zone', () => {
    const pdu = toRebootBody('pdu', values, 'UTC+8');
    expect(pdu).toMatchObject({ kind: 'pdu', name: 'Sagging miners', power_off_seconds: 30 });
    expect(pdu.start_at).toBe(Date.UTC(2026, 4, 1, 0, 0));
    expect(pdu.end_at).toBe(Date.UTC(2026, 4, 8, 0, 0));
    const miner = toRebootBody('miner', values, 'UTC+8');
    expect('power_off_seconds' in miner).toBe(false);
  });

  it('round-trips a task through the form', () => {
    const start = Date.UTC(2026, 0, 2, 3, 4);
    const initial = rebootInitialValues(
      'miner',
      {
        id: 1,
        name: 'A',
        kind: 'miner',
        start_at: start,
        end_at: start + 3_600_000,
        status: 'queued',
        groups: [{ id: 7, name: 'G' }],
        miner_count: 1,
        action_count: 0,
        last_evaluated_at: null,
        created_at: 0,
        updated_at: 0,
        hashrate_threshold: 90,
        duration_seconds: 300,
        reboot_interval_seconds: 600,
        reboot_limit: 2,
        simultaneous_count: 1,
        batch_interval_seconds: 0,
        power_off_seconds: null,
      },
      'UTC-5',
      0,
    );
    expect(initial.group_ids).toEqual([7]);
    expect(initial.start_at?.format('YYYY-MM-DD HH:mm')).toBe('2026-01-01 22:04');
    const body = toTempBody(
      {
        name: 'T',
        group_ids: [7],
        source: 'tank_oil_outlet',
        threshold: 60,
        duration_seconds: 300,
        hysteresis: 3,
        start_at: initial.start_at as dayjs.Dayjs,
        end_at: initial.end_at as dayjs.Dayjs,
      },
      'UTC-5',
    );
    expect(body.start_at).toBe(start);
    expect(body.end_at).toBe(start + 3_600_000);
  });
});

describe('zoned picker values', () => {
  it('shows an instant as wall time of the user zone and back', () => {
    expect(toPickerValue(0, 'UTC+8').format('YYYY-MM-DD HH:mm')).toBe('1970-01-01 08:00');
    expect(toPickerValue(0, 'UTC-12').format('YYYY-MM-DD HH:mm')).toBe('1969-12-31 12:00');
    const instant = Date.UTC(2026, 6, 15, 23, 30);
    for (const zone of ['UTC+8', 'UTC-5', 'UTC+0', 'UTC+12']) {
      expect(fromPickerValue(toPickerValue(instant, zone), zone)).toBe(instant);
    }
  });
});

describe('queue row actions by status (spec §4)', () => {
  const everyone = { manage: true, control: true };
  const expected: Record<TaskStatus, string[]> = {
    queued: ['stop', 'edit', 'delete'],
    running: ['stop', 'edit', 'delete'],
    stopped: ['start', 'edit', 'delete'],
    expired: ['delete'],
    deleted: [],
  };

  it('offers what the status allows', () => {
    for (const status of taskStatuses) expect(taskRowActions(status, everyone)).toEqual(expected[status]);
  });

  it('hides edit and delete without manage, start and stop without taskControl', () => {
    expect(taskRowActions('running', { manage: false, control: true })).toEqual(['stop']);
    expect(taskRowActions('stopped', { manage: false, control: true })).toEqual(['start']);
    expect(taskRowActions('running', { manage: true, control: false })).toEqual(['edit', 'delete']);
    for (const status of taskStatuses)
      expect(taskRowActions(status, { manage: false, control: false })).toEqual([]);
  });
});

describe('server field errors', () => {
  it('puts an error of a list item on the list field', () => {
    expect(topLevelField('group_ids.0')).toBe('group_ids');
    expect(topLevelField('name')).toBe('name');
  });
});
