import type { Generated } from 'kysely';

/** One recorded state-changing call (see modules/oplog). */
export interface OperationLogTable {
  id: Generated<number>;
  at: number;
  user_id: number | null;
  username: string;
  master_id: number | null;
  ip: string | null;
  area_id: number | null;
  area_name: string | null;
  action: string;
  path: string;
  target: string;
  /** JSON of the validated (or, when invalid, raw) input with secrets masked. */
  params: string;
  code: number;
  message_key: string;
  /** JSON of the message's parameters. */
  message_params: string;
}

/** The feature's tables, merged into the database's row types. */
declare module '../../db/schema.js' {
  interface DB {
    operation_log: OperationLogTable;
  }
}
