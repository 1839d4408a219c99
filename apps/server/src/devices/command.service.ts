import { randomBytes } from 'node:crypto';
import {
  Code,
  type Command,
  CommandAckSchema,
  type CommandKind,
  type CommandMessage,
  type CommandStatus,
  type CommandVariant,
  commandVariants,
  topics,
} from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import type { Clock } from '../lib/clock.js';
import type { MqttTransport } from '../mqtt/transport.js';
import type { LiveEvents } from '../realtime/live-events.js';
import { CommandRepository, type CommandRow } from './command.repository.js';
import type { DeviceService } from './device.service.js';

export interface CommandTarget {
  sn?: string;
  tank_no?: number;
  outlet?: number;
  meter_no?: 1 | 2;
}

/** One command to send to one FBOX gateway. The caller has checked the user's scope and authority. */
export interface IssueCommand {
  areaId: number;
  fboxId: number;
  minerId?: number | null;
  tankId?: number | null;
  kind: CommandKind;
  target: CommandTarget;
  params: Record<string, unknown>;
  /**
   * Send-only parameters (a pool password…): merged into the MQTT message and nowhere else — not
   * the commands row, the returned record, the API or the logs (DESIGN §9). A key listed here
   * overrides the same key of `params` on the wire.
   */
  secretParams?: Record<string, unknown>;
  userId: number | null;
  batchId?: string | null;
  /** How long the gateway has to acknowledge it, when not the configured command timeout. */
  timeoutMs?: number;
}

/**
 * Parameter names that are secrets whichever command carries them. A caller that puts one in
 * `params` by mistake still gets it delivered, but it is moved to the send-only part first.
 */
const secretKeys = /password|passwd|secret|token|api_?key/i;

/** Splits a command's parameters into what may be stored and what is only sent. */
export const splitSecrets = (
  params: Record<string, unknown>,
  secretParams: Record<string, unknown> = {},
): { stored: Record<string, unknown>; secrets: Record<string, unknown> } => {
  const stored: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (secretKeys.test(key)) secrets[key] = value;
    else stored[key] = value;
  }
  for (const [key, value] of Object.entries(secretParams)) {
    delete stored[key];
    secrets[key] = value;
  }
  return { stored, secrets };
};

/** A command row with its JSON columns parsed. */
export interface CommandRecord {
  id: string;
  area_id: number;
  fbox_id: number;
  miner_id: number | null;
  tank_id: number | null;
  kind: CommandKind;
  target: CommandTarget;
  params: Record<string, unknown>;
  status: CommandStatus;
  error: string | null;
  batch_id: string | null;
  created_by: number | null;
  created_at: number;
  sent_at: number | null;
  acked_at: number | null;
  timeout_at: number;
}

/** What a command sets (its mode, on/off or control mode), read from its stored parameters. */
export const variantOf = (params: Record<string, unknown>): CommandVariant | null => {
  const value =
    params.mode ??
    params.status ??
    params.control_mode ??
    (typeof params.energy_saving === 'boolean' ? (params.energy_saving ? 'on' : 'off') : undefined);
  return (commandVariants as readonly unknown[]).includes(value) ? (value as CommandVariant) : null;
};

/** A command as the API shows it: no target or parameters (they may hold pool passwords). */
export const commandView = (
  r: Omit<CommandRecord, 'target' | 'area_id' | 'created_by' | 'timeout_at'>,
): Command => ({
  id: r.id,
  kind: r.kind,
  variant: variantOf(r.params),
  status: r.status,
  error: r.error,
  fbox_id: r.fbox_id,
  miner_id: r.miner_id,
  tank_id: r.tank_id,
  batch_id: r.batch_id,
  created_at: r.created_at,
  sent_at: r.sent_at,
  acked_at: r.acked_at,
});

const toRecord = (row: CommandRow): CommandRecord => ({
  ...row,
  kind: row.kind as CommandKind,
  status: row.status as CommandStatus,
  target: JSON.parse(row.target) as CommandTarget,
  params: JSON.parse(row.params) as Record<string, unknown>,
});

/**
 * The command path of DESIGN §2: a row (pending) → MQTT publish on `fbox/<deviceId>/cmd` (sent) →
 * the gateway's ack (acknowledged / failed) or the timeout job (timed_out). Each transition is a
 * conditional update, so a late ack cannot resurrect a timed-out command, and each is announced on
 * the live bus.
 */
/** A command reached a final status (acknowledged, failed or timed out). */
export interface CommandSettled {
  id: string;
  status: CommandStatus;
  error: string | null;
  at: number;
}

export class CommandService {
  private transport: MqttTransport | null = null;
  private readonly settledListeners: ((settled: CommandSettled) => Promise<void>)[] = [];

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly live: LiveEvents,
    private readonly devices: DeviceService,
    private readonly log: FastifyBaseLogger,
    private readonly timeoutMs: number,
    /** How long a request waits for the broker to take a command before answering it pending. */
    private readonly publishWaitMs = 5_000,
  ) {}

  /** Connects the service to the broker; without one commands stay pending and time out. */
  setTransport(transport: MqttTransport | null): void {
    this.transport = transport;
  }

  /** Calls `listener` after each command this process settles (ack or timeout); errors are logged. */
  onSettled(listener: (settled: CommandSettled) => Promise<void>): void {
    this.settledListeners.push(listener);
  }

  private async notifySettled(settled: CommandSettled): Promise<void> {
    for (const listener of this.settledListeners) {
      try {
        await listener(settled);
      } catch (error) {
        this.log.error({ err: error, commandId: settled.id }, 'command settled listener failed');
      }
    }
  }

  /**
   * Pending command rows for `inputs`, with ids the caller chose, for the caller to insert in its
   * own transaction (automation writes its history item and the command as one). Nothing is sent
   * here: `publishStored` sends them after the commit. No send-only parameters on this path.
   */
  async rowsFor(inputs: (Omit<IssueCommand, 'secretParams'> & { id: string })[]): Promise<CommandRow[]> {
    const now = this.clock();
    for (const fboxId of new Set(inputs.map((i) => i.fboxId))) {
      const fbox = await this.devices.findFbox(fboxId);
      if (!fbox || !inputs.every((i) => i.fboxId !== fboxId || i.areaId === fbox.area_id))
        throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    }
    return inputs.map((input) => ({
      id: input.id,
      area_id: input.areaId,
      fbox_id: input.fboxId,
      miner_id: input.minerId ?? null,
      tank_id: input.tankId ?? null,
      kind: input.kind,
      target: JSON.stringify(input.target),
      params: JSON.stringify(splitSecrets(input.params).stored),
      status: 'pending',
      error: null,
      batch_id: input.batchId ?? null,
      created_by: input.userId,
      created_at: now,
      sent_at: null,
      acked_at: null,
      timeout_at: now + (input.timeoutMs ?? this.timeoutMs),
    }));
  }

  /**
   * Publishes stored commands that are still unsettled, each with its own id (the gateway executes
   * an id once and acknowledges a repeat again), so sending again after a crash or a lost delivery
   * cannot act twice. Returns how many were published.
   */
  async publishStored(ids: string[]): Promise<number> {
    if (ids.length === 0 || !this.transport) return 0;
    const repo = new CommandRepository(this.db);
    let published = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await repo.findOpen(ids.slice(i, i + 500));
      for (const { device_id, ...row } of rows) {
        await this.send(toRecord(row), {}, device_id, repo);
        published++;
      }
    }
    return published;
  }

  async issue(input: IssueCommand): Promise<CommandRecord> {
    const [record] = await this.issueMany([input]);
    return record!;
  }

  /** Writes all rows in one go, then publishes each; a failed publish leaves that row pending. */
  async issueMany(inputs: IssueCommand[]): Promise<CommandRecord[]> {
    const now = this.clock();
    const deviceIds = new Map<number, string>();
    for (const input of inputs) {
      if (deviceIds.has(input.fboxId)) continue;
      const fbox = await this.devices.findFbox(input.fboxId);
      if (!fbox || fbox.area_id !== input.areaId) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
      deviceIds.set(input.fboxId, fbox.device_id);
    }
    const split = inputs.map((input) => splitSecrets(input.params, input.secretParams));
    const rows: CommandRow[] = inputs.map((input, i) => ({
      id: randomBytes(16).toString('hex'),
      area_id: input.areaId,
      fbox_id: input.fboxId,
      miner_id: input.minerId ?? null,
      tank_id: input.tankId ?? null,
      kind: input.kind,
      target: JSON.stringify(input.target),
      params: JSON.stringify(split[i]!.stored),
      status: 'pending',
      error: null,
      batch_id: input.batchId ?? null,
      created_by: input.userId,
      created_at: now,
      sent_at: null,
      acked_at: null,
      timeout_at: now + (input.timeoutMs ?? this.timeoutMs),
    }));
    const repo = new CommandRepository(this.db);
    await repo.insert(rows);
    const records = rows.map(toRecord);
    for (const [i, record] of records.entries()) {
      await this.send(record, split[i]!.secrets, deviceIds.get(record.fbox_id)!, repo);
    }
    return records;
  }

  /**
   * Publishes one command and marks it sent once the broker took it. The caller (an HTTP request)
   * waits at most `publishWaitMs`: a broker that is slow to take it (an external one reconnecting,
   * a gateway whose socket is full) must not hold the request. The publish goes on; the row turns
   * `sent` (announced live) when it completes, or stays pending and times out if it fails.
   */
  private async send(
    record: CommandRecord,
    secrets: Record<string, unknown>,
    deviceId: string,
    repo: CommandRepository,
  ): Promise<void> {
    if (!this.transport) return;
    const message: CommandMessage = {
      id: record.id,
      kind: record.kind,
      target: record.target,
      params: { ...record.params, ...secrets },
    };
    const published = this.transport
      .publish(topics.command(deviceId), JSON.stringify(message), { qos: 1 })
      .then(
        () => this.markSent(record, repo),
        (error: unknown) =>
          this.log.warn({ err: error, commandId: record.id }, 'command publish failed; it will time out'),
      )
      .catch((error: unknown) => this.log.error({ err: error, commandId: record.id }, 'marking sent failed'));
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'waited'>((resolve) => {
      timer = setTimeout(() => resolve('waited'), this.publishWaitMs);
    });
    if ((await Promise.race([published, waited])) === 'waited')
      this.log.warn({ commandId: record.id, deviceId }, 'command publish is slow; answering it as pending');
    clearTimeout(timer);
  }

  private async markSent(record: CommandRecord, repo: CommandRepository): Promise<void> {
    const sentAt = this.clock();
    // An ack may already have arrived (the gateway is fast); then the row is no longer pending.
    if (await repo.markSent(record.id, sentAt)) {
      record.status = 'sent';
      record.sent_at = sentAt;
      this.announce(record);
    }
  }

  get(ids: string[], areaIds: number[]): Promise<CommandRecord[]> {
    return new CommandRepository(this.db).findMany(ids, areaIds).then((rows) => rows.map(toRecord));
  }

  /** The commands of a batch in the given areas (at most 10,000). */
  batch(batchId: string, areaIds: number[]): Promise<CommandRecord[]> {
    return new CommandRepository(this.db)
      .findBatch(batchId, areaIds, 10_000)
      .then((rows) => rows.map(toRecord));
  }

  listForMiner(minerId: number, limit: number): Promise<CommandRecord[]> {
    return new CommandRepository(this.db).listForMiner(minerId, limit).then((rows) => rows.map(toRecord));
  }

  /**
   * An ack from `fbox/<deviceId>/cmd/ack`. Unknown ids, acks from another device and acks for
   * settled commands are ignored and logged. Returns the new status, or null when ignored.
   */
  async handleAck(deviceId: string, payload: Buffer): Promise<CommandStatus | null> {
    let ack: ReturnType<typeof CommandAckSchema.parse>;
    try {
      ack = CommandAckSchema.parse(JSON.parse(payload.toString('utf8')));
    } catch (error) {
      this.log.warn({ deviceId, reason: String(error).slice(0, 300) }, 'malformed command ack ignored');
      return null;
    }
    const repo = new CommandRepository(this.db);
    const row = await repo.find(ack.id);
    if (!row || row.device_id !== deviceId) {
      this.log.warn(
        { deviceId, commandId: ack.id },
        'ack for an unknown command or from another device ignored',
      );
      return null;
    }
    const status: CommandStatus = ack.ok ? 'acknowledged' : 'failed';
    const error = ack.ok ? null : (ack.error ?? 'failed');
    if (!(await repo.settle(ack.id, status, error, this.clock()))) {
      this.log.info({ deviceId, commandId: ack.id, status: row.status }, 'ack for a settled command ignored');
      return null;
    }
    this.announce({ ...toRecord(row), status });
    await this.notifySettled({ id: ack.id, status, error, at: this.clock() });
    return status;
  }

  /** Moves commands past their deadline to `timed_out` (the command-timeouts job). Returns how many. */
  async expire(): Promise<number> {
    const now = this.clock();
    const repo = new CommandRepository(this.db);
    let count = 0;
    for (;;) {
      const rows = await repo.expired(now, 500);
      for (const row of rows) {
        if (await repo.settle(row.id, 'timed_out', 'no acknowledgement from the gateway', now)) {
          count++;
          this.announce({ ...toRecord(row), status: 'timed_out' });
          await this.notifySettled({
            id: row.id,
            status: 'timed_out',
            error: 'no acknowledgement from the gateway',
            at: now,
          });
        }
      }
      if (rows.length < 500) return count;
    }
  }

  private announce(
    record: Pick<CommandRecord, 'id' | 'area_id' | 'fbox_id' | 'status' | 'miner_id' | 'tank_id'>,
  ) {
    this.live.publish({
      type: 'command',
      areaId: record.area_id,
      fboxId: record.fbox_id,
      commandId: record.id,
      status: record.status,
      minerId: record.miner_id,
      tankId: record.tank_id,
    });
  }
}
