import { Code, type CommandStatus, type DeviceStatus, limits } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { IssueCommand } from '../../devices/command.service.js';
import { ApiError } from '../../lib/api-error.js';
import type { AreaAccess } from '../area/area.service.js';
import type { Retention } from './history.js';

/**
 * What the device services use from the app. Read at call time: the command and device services
 * are decorated by plugins registered after the modules.
 */
export type DeviceDeps = Pick<
  FastifyInstance,
  | 'db'
  | 'dbDialect'
  | 'clock'
  | 'config'
  | 'areas'
  | 'commands'
  | 'devices'
  | 'miners'
  | 'fboxConfig'
  | 'accountSwitches'
  | 'secrets'
>;

/** The history retention of the configuration, as `readSeries` takes it. */
export const retentionOf = (deps: DeviceDeps): Retention => ({
  now: deps.clock(),
  rawMs: deps.config.retentionRawHours * 3_600_000,
  m1Ms: deps.config.retention1mDays * 86_400_000,
});

export const statusOf = (online: number | null | undefined): DeviceStatus =>
  online === 1 ? 'online' : 'offline';

/**
 * A reading column's value (3 decimals: sums of floats carry binary noise), -999 when the row
 * (state not yet reported) is missing.
 */
export const readingOf = (value: number | null | undefined): number =>
  value === null || value === undefined ? limits.noData : Math.round(value * 1000) / 1000;

export const parseJson = <T>(text: string | null | undefined, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/** `field` / `-field` → the whitelisted column expression and direction (the schema whitelists). */
export const parseSort = <F extends string>(
  sort: string | undefined,
  columns: Record<F, string>,
  fallback: F,
): { column: string; direction: 'asc' | 'desc' } => {
  const descending = sort?.startsWith('-') ?? false;
  const field = (sort ? sort.replace(/^-/, '') : fallback) as F;
  return { column: columns[field] ?? columns[fallback], direction: descending ? 'desc' : 'asc' };
};

/** The LIKE pattern of a case-insensitive substring match, with wildcards in the keyword escaped. */
export const containsPattern = (keyword: string): string =>
  `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column` (lower-cased) matches a `containsPattern`, on both dialects. */
export const matchesPattern = (column: string, pattern: string): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;

/** Case-insensitive substring match on both dialects, with LIKE wildcards in the keyword escaped. */
export const containsText = (column: string, keyword: string): Expression<SqlBool> =>
  matchesPattern(column, containsPattern(keyword));

/** Changing devices (create, edit, delete, transfer, credentials) needs a master or administrator. */
export const requireManage = (access: AreaAccess): void => {
  if (!access.canManage) throw new ApiError(Code.FORBIDDEN, 'api.forbidden');
};

export const notFound = (): never => {
  throw new ApiError(Code.NOT_FOUND, 'api.notFound');
};

/** Today's energy of a box from its state row: meters now minus the reading at the UTC day start. */
export const todayEnergy = (
  state: {
    meter1_energy_kwh: number | null;
    meter2_energy_kwh: number | null;
    energy_day_start_kwh: number | null;
    energy_day: number | null;
  },
  now: number,
): number => {
  if (state.energy_day !== Math.floor(now / 86_400_000)) return 0;
  const value = (v: number | null) => (v === null || v === limits.noData ? 0 : v);
  const used =
    value(state.meter1_energy_kwh) + value(state.meter2_energy_kwh) - value(state.energy_day_start_kwh);
  return used > 0 ? Math.round(used * 1000) / 1000 : 0;
};

/** Where one requested device of a bulk action stands: its command, or not found (outside scope). */
export type BatchOutcome<K extends 'miner_id' | 'tank_id'> = Record<K, number> & {
  command_id: string | null;
  status: CommandStatus | 'not_found';
};

/**
 * Issues a bulk action's commands as one batch and reports every requested device, in request
 * order; ids with no command (not in the caller's mine) answer `not_found`.
 */
export const issueBatch = async <K extends 'miner_id' | 'tank_id'>(
  deps: DeviceDeps,
  batchId: string,
  key: K,
  ids: readonly number[],
  inputs: IssueCommand[],
): Promise<{ batch_id: string; commands: BatchOutcome<K>[] }> => {
  const records = inputs.length ? await deps.commands.issueMany(inputs) : [];
  const byDevice = new Map(records.map((r) => [r[key], r]));
  return {
    batch_id: batchId,
    commands: ids.map((id) => {
      const record = byDevice.get(id);
      return {
        [key]: id,
        command_id: record?.id ?? null,
        status: record?.status ?? 'not_found',
      } as BatchOutcome<K>;
    }),
  };
};
