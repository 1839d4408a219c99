import type { CommandStatus } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { IssueCommand } from './command.service.js';

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
  deps: Pick<FastifyInstance, 'commands'>,
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
