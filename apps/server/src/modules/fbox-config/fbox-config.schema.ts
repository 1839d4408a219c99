/** Row types of migration 0008 (FBOX configuration and account switches). */

/** A mine's FBOX defaults. */
export interface FboxConfigDefaultsTable {
  area_id: number;
  voltage_min: number;
  voltage_max: number;
  temperature_max: number;
  humidity_max: number;
  /** ms between power-unit batch switches. */
  delay_switch_value: number;
  /** Seconds. */
  reporting_interval: number;
  updated_by: number | null;
  updated_at: number;
}

/** An FBOX's own configuration values; null: inherited. */
export interface FboxConfigsTable {
  fbox_id: number;
  voltage_min: number | null;
  voltage_max: number | null;
  temperature_max: number | null;
  humidity_max: number | null;
  delay_switch_value: number | null;
  reporting_interval: number | null;
  updated_at: number;
}

/** The pool and worker a miner should report (set by cloud pool changes and by turning Lock Pool on). */
export interface MinerPoolConfigsTable {
  miner_id: number;
  pool_address: string;
  worker: string;
  updated_at: number;
}

/** The Auto Overclock policy last sent to a master's miners. */
export interface OverclockPoliciesTable {
  master_id: number;
  /** 1 on, 0 off. */
  status: number;
  min: number;
  max: number;
  batch_id: string | null;
  miners: number;
  sent_at: number | null;
}

/** The feature's tables, merged into the database's row types. */
declare module '../../db/schema.js' {
  interface DB {
    fbox_config_defaults: FboxConfigDefaultsTable;
    fbox_configs: FboxConfigsTable;
    miner_pool_configs: MinerPoolConfigsTable;
    overclock_policies: OverclockPoliciesTable;
  }
}
