import { z } from 'zod';
import { DeviceStatusSchema, historyIntervals, maxEpochMs } from './devices.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import { limits } from './limits.js';
import {
  IdSchema,
  intInRange,
  numeric,
  numericWithDefault,
  pageFields,
  requiredText,
  rule,
} from './rules.js';

/*
 * Automation (spec §2 task routes, §3 Task / Miner group, §4 task statuses, §5 task rules, §9;
 * DESIGN §8). Platform calls: POST under /ff-plat-api/api/ with JSON bodies; every body names its
 * mine (`area_id`) and every id outside the caller's mines answers "not found".
 *
 * Times are UTC epoch ms; durations and intervals are seconds (`*_seconds`) unless named otherwise.
 */

// ── Shared shapes ───────────────────────────────────────────────────────────────────────────────

/** Groups are separate per task type (spec §3): miner reboot, PDU reboot, temperature mode. */
export const groupTypes = ['miner_reboot', 'pdu_reboot', 'temp_mode'] as const;
export const GroupTypeSchema = z.enum(groupTypes, { error: rule('rule.invalid') });
export type GroupType = (typeof groupTypes)[number];

/** Reboot task kinds: a miner reboot restarts the miner; a PDU reboot power-cycles its outlet. */
export const rebootKinds = ['miner', 'pdu'] as const;
export const RebootKindSchema = z.enum(rebootKinds, { error: rule('rule.invalid') });
export type RebootKind = (typeof rebootKinds)[number];

/** The group type a reboot task of a kind uses. */
export const groupTypeOfKind = { miner: 'miner_reboot', pdu: 'pdu_reboot' } as const satisfies Record<
  RebootKind,
  GroupType
>;

/**
 * Task statuses of spec §4, as shown. `queued`, `running` and `expired` follow from the clock for an
 * active task (before start, between start and end, after end); `stopped` is the user's stop (shown
 * `expired` once the end time has passed); `deleted` tasks leave the queue but stay in history.
 */
export const taskStatuses = ['queued', 'running', 'stopped', 'expired', 'deleted'] as const;
export const TaskStatusSchema = z.enum(taskStatuses, { error: rule('rule.invalid') });
export type TaskStatus = (typeof taskStatuses)[number];

/** A task transition a user asks for (start, stop, delete), each after a confirmation. */
export const taskTransitions = ['start', 'stop', 'delete'] as const;
export type TaskTransition = (typeof taskTransitions)[number];

/**
 * Whether a user may ask for a transition from a shown status (spec §4; the server refuses the rest
 * with `api.taskCannotStart`, `api.taskCannotStop` or `api.taskAlreadyDeleted`): start a stopped task before its end; stop a queued or running one;
 * delete anything not deleted yet.
 */
export const transitionAllowed = (status: TaskStatus, transition: TaskTransition): boolean => {
  switch (transition) {
    case 'start':
      return status === 'stopped';
    case 'stop':
      return status === 'queued' || status === 'running';
    case 'delete':
      return status !== 'deleted';
  }
};

/** Whether a task in this status may still be edited (not after it ended or was deleted). */
export const editAllowed = (status: TaskStatus): boolean => status !== 'expired' && status !== 'deleted';

/** Interval options of spec §9 (30 s … 2 h), in seconds: the reboot interval takes one of them. */
export const IntervalOptionSchema = numeric(
  z
    .number({ error: rule('rule.interval') })
    .refine((s) => (historyIntervals as readonly number[]).includes(s), { error: rule('rule.interval') }),
);

/** Epoch ms from JSON (number) or a numeric string. */
const EpochMsSchema = numeric(
  z
    .number({ error: rule('rule.invalid') })
    .int({ error: rule('rule.invalid') })
    .min(0, { error: rule('rule.invalid') })
    .max(maxEpochMs, { error: rule('rule.invalid') }),
);

/** At least one group (spec §5), each a positive id, no more than a page of them. */
const GroupIdsSchema = z
  .array(IdSchema, { error: rule('rule.groupRequired') })
  .min(1, { error: rule('rule.groupRequired') })
  .max(100, { error: rule('rule.maxItems', { max: 100 }) });

const PageSchema = z.object(pageFields);

const AreaBody = z.object({ area_id: IdSchema });
const AreaIdBody = AreaBody.extend({ id: IdSchema });

/** Start earlier than end (spec §5), reported on `end_at`. */
const startBeforeEnd = <T extends { start_at: number; end_at: number }>(value: T) =>
  value.start_at < value.end_at;
const startBeforeEndIssue = { error: rule('rule.startBeforeEnd'), path: ['end_at'] };

export const GroupRefSchema = z.object({ id: z.number().int(), name: z.string() });

/** Outcome of one action on one miner (a device command, DESIGN §2). */
export const actionStatuses = ['pending', 'acknowledged', 'failed', 'timeout'] as const;
export const ActionStatusSchema = z.enum(actionStatuses);

/** What a task did to a miner. PDU reboots are two actions: outlet off, then on. */
export const taskActions = ['restart', 'power_off', 'power_on', 'mode_low', 'mode_high'] as const;
export const TaskActionSchema = z.enum(taskActions);

/** Export formats of history and items (blob downloads with a filename). */
export const ExportFormatSchema = z.enum(['csv', 'xlsx'], { error: rule('rule.invalid') }).default('csv');

// ── Miner groups ────────────────────────────────────────────────────────────────────────────────

export const MinerGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: GroupTypeSchema,
  miner_count: z.number().int(),
  /** Tasks not deleted or expired that use the group (a group in use cannot be deleted). */
  task_count: z.number().int(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type MinerGroup = z.infer<typeof MinerGroupSchema>;

export const MinerGroupListBodySchema = AreaBody.extend({
  type: GroupTypeSchema,
  keyword: z.string().trim().max(50).optional(),
}).extend(PageSchema.shape);

export const MinerGroupAddBodySchema = AreaBody.extend({
  name: requiredText(limits.taskNameMax),
  type: GroupTypeSchema,
});
export const MinerGroupEditBodySchema = AreaIdBody.extend({ name: requiredText(limits.taskNameMax) });

/**
 * The miners a group editor picks from (spec: by FBOX, tank, model, status and search). `member`
 * narrows to the group's miners (`in`), the others (`out`) or all, each row saying whether it is in.
 */
export const GroupMinerFilterSchema = z.object({
  member: z.enum(['in', 'out', 'all'], { error: rule('rule.invalid') }).default('all'),
  fbox_id: IdSchema.optional(),
  tank_id: IdSchema.optional(),
  model: z.string().trim().max(64).optional(),
  status: DeviceStatusSchema.optional(),
  /** Worker, IP or SN contains. */
  keyword: z.string().trim().max(64).optional(),
});
export type GroupMinerFilter = z.infer<typeof GroupMinerFilterSchema>;

export const MinerGroupMinerListBodySchema = AreaBody.extend({ group_id: IdSchema })
  .extend(GroupMinerFilterSchema.shape)
  .extend(PageSchema.shape);

export const GroupMinerSchema = z.object({
  id: z.number().int(),
  worker: z.string(),
  sn: z.string(),
  ip: z.string(),
  model: z.string(),
  fbox_id: z.number().int(),
  fbox_name: z.string(),
  tank_id: z.number().int().nullable(),
  tank_name: z.string().nullable(),
  status: DeviceStatusSchema,
  hashrate_realtime: z.number(),
  in_group: z.boolean(),
});
export type GroupMiner = z.infer<typeof GroupMinerSchema>;

/**
 * Bulk add or remove (spec: "bulk add and remove"): either the listed miners, or — with `all_matching`
 * — every miner of the mine the filter matches (at most `maxGroupMiners` in a group).
 */
export const GroupMembersBodySchema = AreaBody.extend({
  group_id: IdSchema,
  miner_ids: z
    .array(IdSchema)
    .max(5000, { error: rule('rule.maxItems', { max: 5000 }) })
    .default([]),
  all_matching: z.boolean().default(false),
  filter: GroupMinerFilterSchema.omit({ member: true }).optional(),
}).refine((b) => b.all_matching || b.miner_ids.length > 0, {
  error: rule('rule.minersRequired'),
  path: ['miner_ids'],
});

export const GroupMembersResultSchema = z.object({
  /** Miners added or removed by this call (already members / non-members are not counted). */
  changed: z.number().int(),
  miner_count: z.number().int(),
});

export const maxGroupMiners = 50_000;

// ── Reboot tasks ────────────────────────────────────────────────────────────────────────────────

const rebootFields = {
  name: requiredText(limits.taskNameMax),
  /** Hashrate condition (TH/s): a miner qualifies below it (spec §5: 1 to 1000). */
  hashrate_threshold: numeric(
    z
      .number({
        error: rule('rule.range', { min: limits.hashrateConditionMin, max: limits.hashrateConditionMax }),
      })
      .min(limits.hashrateConditionMin, {
        error: rule('rule.range', { min: limits.hashrateConditionMin, max: limits.hashrateConditionMax }),
      })
      .max(limits.hashrateConditionMax, {
        error: rule('rule.range', { min: limits.hashrateConditionMin, max: limits.hashrateConditionMax }),
      }),
  ),
  /** Duration condition: below the threshold for this long (required). */
  duration_seconds: intInRange(30, 86_400),
  /** Least time between two actions of this task on one miner: an interval option of spec §9. */
  reboot_interval_seconds: IntervalOptionSchema,
  /** Most actions of this task on one miner in its life (spec §5: at least 1). */
  reboot_limit: intInRange(limits.rebootCountMin, 1000),
  start_at: EpochMsSchema,
  end_at: EpochMsSchema,
  /** Miners acted on per batch. */
  simultaneous_count: intInRange(1, 1000),
  /** Pause between batches. */
  batch_interval_seconds: intInRange(0, 86_400),
  group_ids: GroupIdsSchema,
  /** PDU kind: time between power off and on (required for PDU tasks, ignored otherwise). */
  power_off_seconds: intInRange(1, 3600).optional(),
};

const pduNeedsPowerOff = (b: { kind: RebootKind; power_off_seconds?: number }) =>
  b.kind !== 'pdu' || b.power_off_seconds !== undefined;
const pduNeedsPowerOffIssue = { error: rule('rule.required'), path: ['power_off_seconds'] };

export const RebootTaskAddBodySchema = AreaBody.extend({ kind: RebootKindSchema, ...rebootFields })
  .refine(startBeforeEnd, startBeforeEndIssue)
  .refine(pduNeedsPowerOff, pduNeedsPowerOffIssue);
export type RebootTaskAddBody = z.infer<typeof RebootTaskAddBodySchema>;

/** Update sends the whole task again (the kind cannot change). */
export const RebootTaskUpdateBodySchema = AreaIdBody.extend({ kind: RebootKindSchema, ...rebootFields })
  .refine(startBeforeEnd, startBeforeEndIssue)
  .refine(pduNeedsPowerOff, pduNeedsPowerOffIssue);
export type RebootTaskUpdateBody = z.infer<typeof RebootTaskUpdateBodySchema>;

const taskCommon = {
  id: z.number().int(),
  name: z.string(),
  start_at: z.number(),
  end_at: z.number(),
  status: TaskStatusSchema,
  groups: z.array(GroupRefSchema),
  /** Miners in the task's groups now. */
  miner_count: z.number().int(),
  /** Actions taken so far (history items). */
  action_count: z.number().int(),
  last_evaluated_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
};

export const RebootTaskSchema = z.object({
  ...taskCommon,
  kind: RebootKindSchema,
  hashrate_threshold: z.number(),
  duration_seconds: z.number().int(),
  reboot_interval_seconds: z.number().int(),
  reboot_limit: z.number().int(),
  simultaneous_count: z.number().int(),
  batch_interval_seconds: z.number().int(),
  power_off_seconds: z.number().int().nullable(),
});
export type RebootTask = z.infer<typeof RebootTaskSchema>;

/** The queue: current tasks of a kind (deleted ones are only in history). */
export const RebootTaskListBodySchema = AreaBody.extend({
  kind: RebootKindSchema,
  status: TaskStatusSchema.optional(),
}).extend(PageSchema.shape);

// ── Temperature mode tasks ──────────────────────────────────────────────────────────────────────

/** What a temperature task watches: tank oil outlet, miner chip max, or the FBOX container. */
export const tempSources = ['tank_oil_outlet', 'miner_chip_max', 'fbox_temp'] as const;
export const TempSourceSchema = z.enum(tempSources, { error: rule('rule.invalid') });
export type TempSource = (typeof tempSources)[number];

export const defaultHysteresis = 3;

const tempFields = {
  name: requiredText(limits.taskNameMax),
  group_ids: GroupIdsSchema,
  source: TempSourceSchema,
  /** °C (spec §5: required, at least 10). */
  threshold: numeric(
    z
      .number({ error: rule('rule.min', { min: limits.temperatureMin }) })
      .min(limits.temperatureMin, { error: rule('rule.min', { min: limits.temperatureMin }) })
      .max(150, { error: rule('rule.range', { min: limits.temperatureMin, max: 150 }) }),
  ),
  /** Above the threshold (or at/below threshold − hysteresis) for this long before switching. */
  duration_seconds: intInRange(30, 86_400),
  hysteresis: numericWithDefault(
    z
      .number({ error: rule('rule.range', { min: 0.5, max: 20 }) })
      .min(0.5, { error: rule('rule.range', { min: 0.5, max: 20 }) })
      .max(20, { error: rule('rule.range', { min: 0.5, max: 20 }) }),
    defaultHysteresis,
  ),
  start_at: EpochMsSchema,
  end_at: EpochMsSchema,
};

export const TempTaskAddBodySchema = AreaBody.extend(tempFields).refine(startBeforeEnd, startBeforeEndIssue);
export type TempTaskAddBody = z.infer<typeof TempTaskAddBodySchema>;
export const TempTaskUpdateBodySchema = AreaIdBody.extend(tempFields).refine(
  startBeforeEnd,
  startBeforeEndIssue,
);
export type TempTaskUpdateBody = z.infer<typeof TempTaskUpdateBodySchema>;

export const TempTaskSchema = z.object({
  ...taskCommon,
  source: TempSourceSchema,
  threshold: z.number(),
  duration_seconds: z.number().int(),
  hysteresis: z.number(),
  /**
   * Miners this task left in low power mode: its last action on them was `mode_low` and they still
   * report low. Stopping or deleting the task leaves them so unless the call asks to `restore` them.
   */
  switched_low_count: z.number().int(),
});
export type TempTask = z.infer<typeof TempTaskSchema>;

/**
 * Stop or delete a temperature task; `restore` also switches the miners it left in low power mode
 * (see `switched_low_count`) back to high, as actions of the task recorded in its history.
 */
export const TempTaskEndBodySchema = AreaIdBody.extend({
  restore: z.boolean({ error: rule('rule.invalid') }).default(false),
});
export type TempTaskEndBody = z.input<typeof TempTaskEndBodySchema>;

export const TempTaskListBodySchema = AreaBody.extend({ status: TaskStatusSchema.optional() }).extend(
  PageSchema.shape,
);

// ── History (runs) and items (actions) ──────────────────────────────────────────────────────────

/**
 * A run: one batch a task started at an evaluation (DESIGN §8), with the outcome of its actions.
 * Runs of deleted tasks stay in history.
 */
export const TaskRunSchema = z.object({
  id: z.number().int(),
  task_id: z.number().int(),
  task_name: z.string(),
  task_status: TaskStatusSchema,
  started_at: z.number(),
  finished_at: z.number().nullable(),
  miner_count: z.number().int(),
  acknowledged_count: z.number().int(),
  failed_count: z.number().int(),
  pending_count: z.number().int(),
});
export type TaskRun = z.infer<typeof TaskRunSchema>;

/** History filters; `kind` for reboot tasks only (temperature tasks have one kind). */
const historyFilter = {
  task_id: IdSchema.optional(),
  from: EpochMsSchema.optional(),
  to: EpochMsSchema.optional(),
};

export const RebootHistoryListBodySchema = AreaBody.extend({
  kind: RebootKindSchema,
  ...historyFilter,
}).extend(PageSchema.shape);
export const RebootHistoryExportBodySchema = AreaBody.extend({
  kind: RebootKindSchema,
  ...historyFilter,
  format: ExportFormatSchema,
});
export const TempHistoryListBodySchema = AreaBody.extend(historyFilter).extend(PageSchema.shape);
export const TempHistoryExportBodySchema = AreaBody.extend({ ...historyFilter, format: ExportFormatSchema });

/** Every action on every miner (spec: "a detail"), of one run or of one whole task. */
export const TaskItemSchema = z.object({
  id: z.number().int(),
  run_id: z.number().int(),
  task_id: z.number().int(),
  miner_id: z.number().int(),
  worker: z.string(),
  sn: z.string(),
  ip: z.string(),
  fbox_name: z.string(),
  action: TaskActionSchema,
  /** What made the miner qualify: its hashrate (TH/s) or the watched temperature (°C). */
  reading: z.number().nullable(),
  command_id: z.string().nullable(),
  status: ActionStatusSchema,
  /** Why it failed (the gateway's reason or a timeout), '' otherwise. */
  error: z.string(),
  created_at: z.number(),
  finished_at: z.number().nullable(),
});
export type TaskItem = z.infer<typeof TaskItemSchema>;

export const TaskItemsBodySchema = AreaBody.extend({
  run_id: IdSchema.optional(),
  task_id: IdSchema.optional(),
})
  .extend(PageSchema.shape)
  .refine((b) => b.run_id !== undefined || b.task_id !== undefined, {
    error: rule('rule.required'),
    path: ['run_id'],
  });
export const TaskItemsExportBodySchema = AreaBody.extend({
  run_id: IdSchema.optional(),
  task_id: IdSchema.optional(),
  format: ExportFormatSchema,
}).refine((b) => b.run_id !== undefined || b.task_id !== undefined, {
  error: rule('rule.required'),
  path: ['run_id'],
});

// ── Endpoints ───────────────────────────────────────────────────────────────────────────────────

const Nothing = z.null();
const GROUP = '/ff-plat-api/api/minerGroup';
const REBOOT = '/ff-plat-api/api/taskReboot';
const TEMP = '/ff-plat-api/api/taskTemp';

/** Download endpoints answer a file; `data` describes its text. */
const fileData = z.string();

export const taskEndpoints = {
  minerGroupList: endpoint({
    method: 'POST',
    path: `${GROUP}/list`,
    permission: 'user',
    body: MinerGroupListBodySchema,
    data: listOf(MinerGroupSchema),
  }),
  minerGroupDetail: endpoint({
    method: 'POST',
    path: `${GROUP}/detail`,
    permission: 'user',
    body: AreaIdBody,
    data: MinerGroupSchema,
  }),
  minerGroupMinerList: endpoint({
    method: 'POST',
    path: `${GROUP}/minerList`,
    permission: 'user',
    body: MinerGroupMinerListBodySchema,
    data: listOf(GroupMinerSchema),
  }),
  minerGroupAdd: endpoint({
    method: 'POST',
    path: `${GROUP}/add`,
    permission: 'manage',
    body: MinerGroupAddBodySchema,
    data: MinerGroupSchema,
    mutates: true,
    success: 'api.modified',
  }),
  minerGroupEdit: endpoint({
    method: 'POST',
    path: `${GROUP}/edit`,
    permission: 'manage',
    body: MinerGroupEditBodySchema,
    data: MinerGroupSchema,
    mutates: true,
    success: 'api.modified',
  }),
  minerGroupDelete: endpoint({
    method: 'POST',
    path: `${GROUP}/delete`,
    permission: 'manage',
    body: AreaIdBody,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
  }),
  minerGroupAddMiner: endpoint({
    method: 'POST',
    path: `${GROUP}/addMiner`,
    permission: 'manage',
    body: GroupMembersBodySchema,
    data: GroupMembersResultSchema,
    mutates: true,
    success: 'api.modified',
  }),
  minerGroupRemoveMiner: endpoint({
    method: 'POST',
    path: `${GROUP}/removeMinerNew`,
    permission: 'manage',
    body: GroupMembersBodySchema,
    data: GroupMembersResultSchema,
    mutates: true,
    success: 'api.modified',
  }),

  rebootTaskList: endpoint({
    method: 'POST',
    path: `${REBOOT}/list`,
    permission: 'user',
    body: RebootTaskListBodySchema,
    data: listOf(RebootTaskSchema),
  }),
  rebootTaskHistoryList: endpoint({
    method: 'POST',
    path: `${REBOOT}/history/list`,
    permission: 'user',
    body: RebootHistoryListBodySchema,
    data: listOf(TaskRunSchema),
  }),
  rebootTaskHistoryExport: endpoint({
    method: 'POST',
    path: `${REBOOT}/history/list/export`,
    permission: 'user',
    body: RebootHistoryExportBodySchema,
    data: fileData,
    download: true,
  }),
  rebootTaskHistoryItems: endpoint({
    method: 'POST',
    path: `${REBOOT}/history/items`,
    permission: 'user',
    body: TaskItemsBodySchema,
    data: listOf(TaskItemSchema),
  }),
  rebootTaskHistoryItemsExport: endpoint({
    method: 'POST',
    path: `${REBOOT}/history/items/export`,
    permission: 'user',
    body: TaskItemsExportBodySchema,
    data: fileData,
    download: true,
  }),
  rebootTaskAdd: endpoint({
    method: 'POST',
    path: `${REBOOT}/add`,
    permission: 'manage',
    body: RebootTaskAddBodySchema,
    data: RebootTaskSchema,
    mutates: true,
    success: 'api.modified',
  }),
  rebootTaskUpdate: endpoint({
    method: 'POST',
    path: `${REBOOT}/update`,
    permission: 'manage',
    body: RebootTaskUpdateBodySchema,
    data: RebootTaskSchema,
    mutates: true,
    success: 'api.modified',
  }),
  rebootTaskStart: endpoint({
    method: 'POST',
    path: `${REBOOT}/start`,
    permission: 'operate:taskControl',
    body: AreaIdBody,
    data: RebootTaskSchema,
    mutates: true,
    success: 'api.modified',
  }),
  rebootTaskStop: endpoint({
    method: 'POST',
    path: `${REBOOT}/stop`,
    permission: 'operate:taskControl',
    body: AreaIdBody,
    data: RebootTaskSchema,
    mutates: true,
    success: 'api.modified',
  }),
  rebootTaskDelete: endpoint({
    method: 'POST',
    path: `${REBOOT}/delete`,
    permission: 'manage',
    body: AreaIdBody,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
  }),

  tempTaskList: endpoint({
    method: 'POST',
    path: `${TEMP}/list`,
    permission: 'user',
    body: TempTaskListBodySchema,
    data: listOf(TempTaskSchema),
  }),
  tempTaskHistoryList: endpoint({
    method: 'POST',
    path: `${TEMP}/history/list`,
    permission: 'user',
    body: TempHistoryListBodySchema,
    data: listOf(TaskRunSchema),
  }),
  tempTaskHistoryExport: endpoint({
    method: 'POST',
    path: `${TEMP}/history/list/export`,
    permission: 'user',
    body: TempHistoryExportBodySchema,
    data: fileData,
    download: true,
  }),
  tempTaskHistoryItems: endpoint({
    method: 'POST',
    path: `${TEMP}/history/items`,
    permission: 'user',
    body: TaskItemsBodySchema,
    data: listOf(TaskItemSchema),
  }),
  tempTaskHistoryItemsExport: endpoint({
    method: 'POST',
    path: `${TEMP}/history/items/export`,
    permission: 'user',
    body: TaskItemsExportBodySchema,
    data: fileData,
    download: true,
  }),
  tempTaskAdd: endpoint({
    method: 'POST',
    path: `${TEMP}/add`,
    permission: 'manage',
    body: TempTaskAddBodySchema,
    data: TempTaskSchema,
    mutates: true,
    success: 'api.modified',
  }),
  tempTaskUpdate: endpoint({
    method: 'POST',
    path: `${TEMP}/update`,
    permission: 'manage',
    body: TempTaskUpdateBodySchema,
    data: TempTaskSchema,
    mutates: true,
    success: 'api.modified',
  }),
  tempTaskStart: endpoint({
    method: 'POST',
    path: `${TEMP}/start`,
    permission: 'operate:taskControl',
    body: AreaIdBody,
    data: TempTaskSchema,
    mutates: true,
    success: 'api.modified',
  }),
  tempTaskStop: endpoint({
    method: 'POST',
    path: `${TEMP}/stop`,
    permission: 'operate:taskControl',
    body: TempTaskEndBodySchema,
    data: TempTaskSchema,
    mutates: true,
    success: 'api.modified',
  }),
  tempTaskDelete: endpoint({
    method: 'POST',
    path: `${TEMP}/delete`,
    permission: 'manage',
    body: TempTaskEndBodySchema,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
  }),
} as const;
