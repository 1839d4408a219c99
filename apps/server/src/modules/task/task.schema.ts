import type { Generated } from 'kysely';

/** Row types of the automation tables (migration 0010). Times are UTC epoch ms. */

export interface MinerGroupsTable {
  id: Generated<number>;
  area_id: number;
  /** 'miner_reboot' | 'pdu_reboot' | 'temp_mode'. */
  type: string;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface MinerGroupMembersTable {
  group_id: number;
  miner_id: number;
}

export interface TasksTable {
  id: Generated<number>;
  area_id: number;
  /** 'reboot' | 'temp'. */
  type: string;
  /** 'miner' | 'pdu' (reboot) or 'temp'. */
  kind: string;
  name: string;
  duration_seconds: number;
  hashrate_threshold: number | null;
  reboot_interval_seconds: number | null;
  reboot_limit: number | null;
  simultaneous_count: number | null;
  batch_interval_seconds: number | null;
  power_off_seconds: number | null;
  source: string | null;
  threshold: number | null;
  hysteresis: number | null;
  start_at: number;
  end_at: number;
  /** 'active' | 'stopped' | 'deleted'. */
  state: string;
  next_eval_at: number | null;
  claimed_by: string | null;
  lease_until: Generated<number>;
  last_evaluated_at: number | null;
  last_batch_at: number | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface TaskGroupsTable {
  task_id: number;
  group_id: number;
}

export interface TaskMinerStateTable {
  task_id: number;
  miner_id: number;
  since_at: number | null;
  cool_since: number | null;
  action_count: Generated<number>;
  last_action_at: number | null;
  last_action: string | null;
  on_due_at: number | null;
  pending_run_id: number | null;
}

export interface TaskRunsTable {
  id: Generated<number>;
  task_id: number;
  area_id: number;
  started_at: number;
  finished_at: number | null;
}

export interface TaskItemsTable {
  id: Generated<number>;
  run_id: number;
  task_id: number;
  area_id: number;
  miner_id: number;
  worker: string;
  sn: string;
  ip: string;
  fbox_name: string;
  action: string;
  reading: number | null;
  action_key: string;
  command_id: string;
  /** 'pending' | 'acknowledged' | 'failed' | 'timeout'. */
  status: string;
  error: Generated<string>;
  created_at: number;
  finished_at: number | null;
}

/** The feature's tables, merged into the database's row types. */
declare module '../../db/schema.js' {
  interface DB {
    miner_groups: MinerGroupsTable;
    miner_group_members: MinerGroupMembersTable;
    tasks: TasksTable;
    task_groups: TaskGroupsTable;
    task_miner_state: TaskMinerStateTable;
    task_runs: TaskRunsTable;
    task_items: TaskItemsTable;
  }
}
