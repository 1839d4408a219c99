import { ApiError } from '../cgminer/client.js';
import { type ApiObject, num, parseJsonReply } from '../cgminer/parse.js';
import type { CommandResult, Endpoint, Identified, MinerProtocol, PoolSetting } from '../protocol.js';
import { timeBudget } from '../socket-request.js';
import { objectAt, text } from './common.js';
import { aesEncrypt, v3Auth } from './crypto.js';
import { type RepliesV3, toReadingV3 } from './map-v3.js';
import { requestV3 } from './transport.js';
import { WriteQueue, writeFailure } from './write-queue.js';

/**
 * The Whatsminer API v3 on TCP 4433, after apidoc.whatsminer.com (API 3.0.x, firmware from May
 * 2024): length-framed JSON (transport.ts), answers `{code, when, msg, desc}` with code 0 for
 * success, -1 fail, -2 invalid command, -3 invalid json item, -4 no permission, -5 out of memory.
 * Writes (`set.*`) carry `ts`, `account` and `token` = base64(sha256(cmd + password + salt + ts))
 * cut to 8 characters, the salt coming from `get.device.info`; `set.miner.pools` sends its
 * parameter AES-256-ECB encrypted with that sha256 (crypto.ts).
 */

export interface WhatsminerV3Options {
  connectTimeoutMs: number;
  /** A whole request, ms. */
  requestTimeoutMs: number;
  defaultPort?: number;
  /** The operator account of writes (`super`, `user1`…`user3`; the doc no longer takes `admin`); default `super`. */
  account?: string;
  /** That account's password; default `admin`. */
  password?: string;
}

const CODE_NAMES: Record<number, string> = {
  [-1]: 'fail',
  [-2]: 'invalid command',
  [-3]: 'invalid json item',
  [-4]: 'no permission',
  [-5]: 'out of memory',
};

/** `msg` when it is an object, else {}. */
const messageOf = (reply: ApiObject): ApiObject => objectAt(reply, 'msg');

/** The device's own words for a failed answer: its `msg` text, else the code's meaning. */
const refusal = (reply: ApiObject): string => {
  const code = num(reply.code);
  if (typeof reply.msg === 'string' && reply.msg.trim()) return reply.msg.trim();
  return `${text(reply.desc) || 'command'} failed: ${CODE_NAMES[code ?? 0] ?? `code ${code}`}`;
};

export class WhatsminerV3Protocol implements MinerProtocol {
  readonly name = 'whatsminer-v3';
  readonly defaultPort: number;
  private readonly account: string;
  private readonly password: string;
  private readonly queue = new WriteQueue();

  constructor(private readonly options: WhatsminerV3Options) {
    this.defaultPort = options.defaultPort ?? 4433;
    this.account = options.account ?? 'super';
    this.password = options.password ?? 'admin';
  }

  /** One command, its answer parsed (whatever its code). */
  async request(endpoint: Endpoint, request: ApiObject, timeoutMs?: number): Promise<ApiObject> {
    const text = await requestV3(request, {
      host: endpoint.host,
      port: endpoint.port,
      connectTimeoutMs: this.options.connectTimeoutMs,
      timeoutMs: timeoutMs ?? this.options.requestTimeoutMs,
    });
    const reply = parseJsonReply(text);
    if (!('code' in reply)) throw new ApiError('answer has no code: not the Whatsminer API v3', 'invalid');
    return reply;
  }

  /** A read command's `msg`; throws with the device's words when its code is not 0. */
  private async read(endpoint: Endpoint, cmd: string, param?: string, timeoutMs?: number) {
    const reply = await this.request(endpoint, param === undefined ? { cmd } : { cmd, param }, timeoutMs);
    if (num(reply.code) !== 0) throw new ApiError(`${cmd}: ${refusal(reply)}`, 'refused');
    return messageOf(reply);
  }

  async probe(endpoint: Endpoint, timeoutMs: number): Promise<Identified | null> {
    try {
      const deviceInfo = await this.read(endpoint, 'get.device.info', undefined, timeoutMs);
      if (!('miner' in deviceInfo) && !('system' in deviceInfo)) return null;
      return await this.poll(endpoint, deviceInfo);
    } catch {
      return null;
    }
  }

  async poll(endpoint: Endpoint, knownDeviceInfo?: ApiObject): Promise<Identified> {
    const left = timeBudget(this.options.requestTimeoutMs);
    const replies: RepliesV3 = {
      deviceInfo: knownDeviceInfo ?? (await this.read(endpoint, 'get.device.info')),
    };
    replies.status = await this.read(endpoint, 'get.miner.status', 'summary+pools+edevs', left());
    try {
      replies.setting = await this.read(endpoint, 'get.miner.setting', undefined, left());
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'refused') throw error;
    }
    const reading = toReadingV3(replies, `wm3-${endpoint.host}-${endpoint.port}`);
    return { protocol: this.name, family: 'whatsminer', reading };
  }

  /** `set.miner.service` `restart`: restarts btminer, the mining program. */
  restart(endpoint: Endpoint): Promise<CommandResult> {
    return this.write(endpoint, 'set.miner.service', 'restart', true);
  }

  /** `set.system.reboot`: reboots the device at once (it may close without answering). */
  reboot(endpoint: Endpoint): Promise<CommandResult> {
    return this.write(endpoint, 'set.system.reboot', undefined, true);
  }

  /** `set.miner.power_mode` `low`, or `normal` for the miner's normal mode. */
  setMode(endpoint: Endpoint, mode: 'high' | 'low'): Promise<CommandResult> {
    return this.write(endpoint, 'set.miner.power_mode', mode === 'low' ? 'low' : 'normal', false);
  }

  /**
   * `set.miner.pools` takes the whole list (up to three): `pool` first, then the miner's other
   * pools (read back without their passwords, so sent with `x`).
   */
  async setPool(endpoint: Endpoint, pool: PoolSetting): Promise<CommandResult> {
    let current: ApiObject[] = [];
    try {
      const status = await this.read(endpoint, 'get.miner.status', 'pools');
      current = Array.isArray(status.pools) ? (status.pools as ApiObject[]) : [];
    } catch {
      // Unreadable: the new pool alone is still worth setting.
    }
    const others = current
      .filter((item) => text(item.url) && text(item.url) !== pool.url)
      .map((item) => ({ pool: text(item.url), worker: text(item.account), passwd: 'x' }));
    const pools = [{ pool: pool.url, worker: pool.worker, passwd: pool.password }, ...others].slice(0, 3);
    return this.write(endpoint, 'set.miner.pools', pools, false);
  }

  private write(
    endpoint: Endpoint,
    cmd: string,
    param: unknown,
    closeMeansDone: boolean,
  ): Promise<CommandResult> {
    return this.queue.run(endpoint, async () => {
      let salt: string;
      try {
        salt = text((await this.read(endpoint, 'get.device.info', 'salt')).salt);
      } catch (error) {
        return { ok: false, error: writeFailure(error) };
      }
      if (!salt) return { ok: false, error: 'get.device.info gave no salt' };
      const ts = Math.floor(Date.now() / 1000);
      const { token, aesKey } = v3Auth(cmd, this.password, salt, ts);
      const request: ApiObject = { cmd, ts, token, account: this.account };
      if (cmd === 'set.miner.pools') request.param = aesEncrypt(JSON.stringify(param), aesKey, 'pkcs7');
      else if (param !== undefined) request.param = param;
      let reply: ApiObject;
      try {
        reply = await this.request(endpoint, request);
      } catch (error) {
        if (closeMeansDone && error instanceof ApiError && error.kind === 'closed') return { ok: true };
        return { ok: false, error: writeFailure(error) };
      }
      return num(reply.code) === 0 ? { ok: true } : { ok: false, error: refusal(reply) };
    });
  }
}
