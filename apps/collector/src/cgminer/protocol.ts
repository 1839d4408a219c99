import { KeyedQueue } from '../keyed-queue.js';
import type { CommandResult, Endpoint, Identified, MinerProtocol } from '../protocol.js';
import { endpointKey } from '../protocol.js';
import { timeBudget } from '../socket-request.js';
import { ApiError, rawRequest } from './client.js';
import { type CgminerFamily, pollCommands } from './identify.js';
import { type Replies, toReading } from './map.js';
import { type ApiObject, commandPart, isError, parseJsonReply, statusOf } from './parse.js';

export interface CgminerOptions {
  connectTimeoutMs: number;
  /** A whole request, ms. */
  requestTimeoutMs: number;
  defaultPort?: number;
}

/** What the protocol remembers per miner: its family, and whether it takes combined `a+b` commands. */
interface Memo {
  family?: CgminerFamily;
  combined?: boolean;
}

/**
 * The CGMiner-family JSON API (cgminer API-README) as Antminer (BMMiner), Avalon and Braiins OS
 * (compatibility mode) speak it. Reads combine the report commands into one request
 * (`version+summary+stats+pools`, API ≥ 3.1) and fall back to one request per command on firmware
 * that refuses `+`. Writes to one miner run one at a time.
 */
export class CgminerProtocol implements MinerProtocol {
  readonly name = 'cgminer';
  readonly defaultPort: number;
  private readonly memo = new Map<string, Memo>();
  private readonly writes = new KeyedQueue<string>();

  constructor(private readonly options: CgminerOptions) {
    this.defaultPort = options.defaultPort ?? 4028;
  }

  /** One command, its reply parsed (quirks repaired). */
  async request(endpoint: Endpoint, command: string, parameter?: string, timeoutMs?: number) {
    const text = await rawRequest(command, parameter, {
      host: endpoint.host,
      port: endpoint.port,
      connectTimeoutMs: this.options.connectTimeoutMs,
      timeoutMs: timeoutMs ?? this.options.requestTimeoutMs,
    });
    return parseJsonReply(text);
  }

  /** The replies to `commands`: one combined request where supported, else one each. */
  private async readAll(endpoint: Endpoint, commands: string[], timeoutMs?: number): Promise<Replies> {
    const memo = this.memoOf(endpoint);
    const budget = timeoutMs ?? this.options.requestTimeoutMs;
    const left = timeBudget(budget);
    if (memo.combined !== false) {
      const reply = await this.request(endpoint, commands.join('+'), undefined, budget);
      const replies: Replies = {};
      for (const command of commands) {
        const part = commandPart(reply, command);
        if (part && !isError(statusOf(part))) replies[command] = part;
      }
      if (Object.keys(replies).length > 0) {
        memo.combined = true;
        return replies;
      }
      if (memo.combined === true || !isError(statusOf(reply)))
        throw new ApiError('answer holds none of the requested reports', 'invalid');
      memo.combined = false; // refused `+`: ask one by one from now on
    }
    const replies: Replies = {};
    for (const command of commands) {
      const reply = await this.request(endpoint, command, undefined, left());
      if (!isError(statusOf(reply))) replies[command] = reply;
    }
    return replies;
  }

  private memoOf(endpoint: Endpoint): Memo {
    const key = endpointKey(endpoint);
    let memo = this.memo.get(key);
    if (!memo) {
      memo = {};
      this.memo.set(key, memo);
    }
    return memo;
  }

  private toIdentified(endpoint: Endpoint, replies: Replies): Identified {
    if (!replies.version && !replies.summary && !replies.stats)
      throw new ApiError('answer holds no version, summary or stats report', 'invalid');
    const { reading, identity } = toReading(replies, `cg-${endpoint.host}-${endpoint.port}`);
    this.memoOf(endpoint).family = identity.family;
    return { protocol: this.name, family: identity.family, reading };
  }

  async probe(endpoint: Endpoint, timeoutMs: number): Promise<Identified | null> {
    let version: ApiObject;
    try {
      version = await this.request(endpoint, 'version', undefined, timeoutMs);
    } catch {
      return null;
    }
    if (!statusOf(version) || isError(statusOf(version))) return null;
    try {
      return await this.poll(endpoint, { version });
    } catch {
      return null;
    }
  }

  async poll(endpoint: Endpoint, known: Replies = {}): Promise<Identified> {
    let family = this.memoOf(endpoint).family;
    if (!family) {
      const version = known.version ?? (await this.request(endpoint, 'version'));
      family = this.toIdentified(endpoint, { version }).family as CgminerFamily;
    }
    return this.toIdentified(endpoint, await this.readAll(endpoint, pollCommands[family]));
  }

  /**
   * `restart` (privileged): cgminer answers a bare `RESTART` before it restarts (BMMiner:
   * `{"STATUS":"RESTART"}`); a refusal is an E status whose `Msg` is the device's reason
   * (e.g. "Access denied to 'restart' command").
   */
  restart(endpoint: Endpoint): Promise<CommandResult> {
    return this.writes.run(endpointKey(endpoint), async () => {
      let text: string;
      try {
        text = await rawRequest('restart', undefined, {
          host: endpoint.host,
          port: endpoint.port,
          connectTimeoutMs: this.options.connectTimeoutMs,
          timeoutMs: this.options.requestTimeoutMs,
        });
      } catch (error) {
        return { ok: false, error: `miner unreachable: ${(error as Error).message}` };
      }
      if (/^\s*RESTART\s*$/i.test(text)) return { ok: true };
      let reply: ApiObject;
      try {
        reply = parseJsonReply(text);
      } catch {
        return { ok: false, error: `unexpected answer to restart: ${text.trim().slice(0, 200)}` };
      }
      const status = statusOf(reply);
      if (status && isError(status)) return { ok: false, error: status.msg || `status ${status.status}` };
      return { ok: true };
    });
  }
}
