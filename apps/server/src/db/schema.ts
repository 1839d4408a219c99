import type { Generated } from 'kysely';
import type { DevicesDB } from './devices-schema.js';
import type { MqttClientsTable } from './mines-schema.js';

export type * from './devices-schema.js';

/** Row types of the database. Timestamps are UTC epoch ms; flags are 0/1 integers on both dialects. */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  nickname: string;
  email: string;
  /** Country code and number joined by a space, or ''. */
  mobile: string;
  time_zone: string;
  headimg: number;
  is_master: number;
  /** The master account of a sub-account; null for masters. */
  parent_id: number | null;
  /** 1 active, 0 disabled. */
  status: number;
  /** 'administrator' or 'operator' for a sub-account, '' for a master. */
  authority: Generated<string>;
  /** JSON list of the operator rules (contracts `operatorRules`) a sub-account holds. */
  rules: Generated<string>;
  auto_frequency: number;
  auto_frequency_min: number;
  auto_frequency_max: number;
  pool_locked: number;
  /** JSON text: `{"delay_switch_value":N}`. */
  global_config: string;
  /** JSON text: `{"1":1,"2":1,"3":0}`. */
  alert_send_level: string;
  /** JSON text `{status, value[]}` per push channel. */
  email_send: string;
  sms_send: string;
  teams_send: string;
  telegram_send: string;
  sms_times: number;
  /** Sealed (lib/secret-box), as is the pending one of an enrolment not yet confirmed. */
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_step: number | null;
  created_at: number;
  updated_at: number;
  last_login_at: number | null;
  last_login_ip: string | null;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  revoked_at: number | null;
  ip: string | null;
  user_agent: string | null;
}

/** Failure counters of the login rate limit, shared by every server process. */
export interface LoginLimitsTable {
  key: string;
  failures: number;
  window_start: number;
  locked_until: number | null;
}

export interface AreasTable {
  id: Generated<number>;
  owner_id: number;
  area_name: string;
  electricity_hz: number;
  created_at: number;
  updated_at: number;
  /** Migration 0007 (Manage Mines): the site agents' MQTT password, 32 hex digits, sealed (lib/secret-box). */
  agent_key: Generated<string>;
  comment: Generated<string>;
  contact: Generated<string>;
  /** Price of one kWh, > 0. */
  electricity_price: Generated<number>;
}

export interface UserAreasTable {
  user_id: number;
  area_id: number;
}

export interface MessagesTable {
  id: Generated<number>;
  user_id: number;
  area_id: number | null;
  level: number;
  title: string;
  content: string;
  created_at: number;
  read_at: number | null;
}

/**
 * The core tables. A feature adds its own by declaration merging in its folder
 * (`modules/<feature>/<feature>.schema.ts`), so this list does not grow with features.
 */
export interface DB extends DevicesDB {
  users: UsersTable;
  sessions: SessionsTable;
  login_limits: LoginLimitsTable;
  areas: AreasTable;
  user_areas: UserAreasTable;
  messages: MessagesTable;
  mqtt_clients: MqttClientsTable;
}
