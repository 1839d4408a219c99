import type { MinerLogExportStatus, MinerLogItemState, MinerLogScope } from '@fbox/contracts';
import type { Generated } from 'kysely';

/** Row types of the miner log export tables (migration 0028_log_exports). Times are UTC epoch ms. */

export interface LogExportsTable {
  id: Generated<number>;
  area_id: number;
  scope: MinerLogScope;
  scope_label: string;
  from_ts: number;
  to_ts: number;
  status: MinerLogExportStatus;
  total: number;
  done: Generated<number>;
  failed: Generated<number>;
  bytes: Generated<number>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

/** One miner of an export; `command_id` is its `miner.logs` command once asked. */
export interface LogExportMinersTable {
  export_id: number;
  miner_id: number;
  fbox_id: number;
  sn: string;
  state: MinerLogItemState;
  command_id: string | null;
  /** A reason: a shared message key with `@` in front (ours), or the gateway's own words. */
  error: string | null;
  bytes: Generated<number>;
  updated_at: number;
}

/** A part of a miner's log as its gateway sent it (`fbox/<deviceId>/logs`). */
export interface LogExportPartsTable {
  command_id: string;
  part: number;
  /** 1 on the final part. */
  last: number;
  data: string;
  bytes: number;
}

declare module '../../db/schema.js' {
  interface DB {
    log_exports: LogExportsTable;
    log_export_miners: LogExportMinersTable;
    log_export_parts: LogExportPartsTable;
  }
}
