import { ApiError } from '../cgminer/client.js';
import { type ApiObject, parseJsonReply } from '../cgminer/parse.js';
import type { CommandResult, Endpoint, Identified, MinerProtocol, PoolSetting } from '../protocol.js';
import { endpointKey } from '../protocol.js';
import { timeBudget } from '../socket-request.js';
import { objectAt, text } from './common.js';
import { aesDecrypt, aesEncrypt, type V2TokenMessage, v2Credentials } from './crypto.js';
import { isErrorV2, messageOf, type RepliesV2, recordsOf, statusV2, toReadingV2 } from './map-v2.js';
import { requestV2 } from './transport.js';
import { WriteQueue, writeFailure } from './write-queue.js';

/**
 * The Whatsminer (MicroBT btminer) API v2 on TCP 4028, after "Whatsminer API V2.0.5": reads in
 * plain JSON (`{"cmd":"summary"}`), writes encrypted with a token from `get_token` (see crypto.ts).
 * It shares port 4028 with the CGMiner API, so `probe` asks `get_version`, which only Whatsminer
 * answers with its own envelope (`"STATUS":"S"` as a string, `Msg.api_ver`/`fw_ver`, or a
 * `Description` naming whatsminer): a cgminer answers with its `STATUS` list and gets null.
 */

export interface WhatsminerV2Options {
  connectTimeoutMs: number;
  /** A whole request, ms. */
  requestTimeoutMs: number;
  defaultPort?: number;
  /** The `admin` account's password (write commands); default `admin`. */
  password?: string;
}

/** The vendor's codes (V2.0.5 §2): 131 command OK, 134 token OK, 135 check token error. */
const CODE_CHECK_TOKEN = 135;
/** A token lives 30 minutes on the miner; renew a little before. */
const TOKEN_LIFE_MS = 25 * 60 * 1000;

/** What one poll asks after `summary`, one request each (v2 takes one command per connection). */
const POLL_COMMANDS = [
  'pools',
  'edevs',
  'devdetails',
  'get_version',
  'get_miner_info',
  'get_error_code',
] as const;

interface CachedToken {
  token: V2TokenMessage;
  at: number;
}

/** Is this a Whatsminer's answer? Its envelope has a string STATUS; cgminer writes a list. */
const isWhatsminerAnswer = (reply: ApiObject): boolean => {
  if (typeof reply.STATUS !== 'string') return false;
  const msg = messageOf(reply);
  return 'api_ver' in msg || 'fw_ver' in msg || /whatsminer|btminer/i.test(text(reply.Description));
};

export class WhatsminerV2Protocol implements MinerProtocol {
  readonly name = 'whatsminer';
  readonly defaultPort: number;
  private readonly password: string;
  private readonly tokens = new Map<string, CachedToken>();
  private readonly queue = new WriteQueue();

  constructor(private readonly options: WhatsminerV2Options) {
    this.defaultPort = options.defaultPort ?? 4028;
    this.password = options.password ?? 'admin';
  }

  private raw(endpoint: Endpoint, request: object, timeoutMs?: number): Promise<string> {
    return requestV2(request, {
      host: endpoint.host,
      port: endpoint.port,
      connectTimeoutMs: this.options.connectTimeoutMs,
      timeoutMs: timeoutMs ?? this.options.requestTimeoutMs,
    });
  }

  /** One plain (read) command, its answer parsed. */
  async request(endpoint: Endpoint, cmd: string, timeoutMs?: number): Promise<ApiObject> {
    return parseJsonReply(await this.raw(endpoint, { cmd }, timeoutMs));
  }

  async probe(endpoint: Endpoint, timeoutMs: number): Promise<Identified | null> {
    try {
      const version = await this.request(endpoint, 'get_version', timeoutMs);
      if (!isWhatsminerAnswer(version)) return null;
      return await this.poll(endpoint, isErrorV2(statusV2(version)) ? {} : { get_version: version });
    } catch {
      return null;
    }
  }

  async poll(endpoint: Endpoint, known: RepliesV2 = {}): Promise<Identified> {
    const left = timeBudget(this.options.requestTimeoutMs);
    const summary = await this.request(endpoint, 'summary', left());
    const refused = statusV2(summary);
    if (isErrorV2(refused) || !recordsOf(summary, 'SUMMARY').length)
      throw new ApiError(`summary refused: ${refused?.msg || 'no SUMMARY in the answer'}`, 'invalid');
    const replies: RepliesV2 = { ...known, summary };
    for (const cmd of POLL_COMMANDS) {
      if (replies[cmd]) continue;
      const reply = await this.request(endpoint, cmd, left());
      if (!isErrorV2(statusV2(reply))) replies[cmd] = reply;
    }
    // Power is in `summary` on current firmware; older builds report it only on the PSU.
    if (!('Power' in (recordsOf(summary, 'SUMMARY')[0] ?? {}))) {
      const psu = await this.request(endpoint, 'get_psu', left());
      if (!isErrorV2(statusV2(psu))) replies.get_psu = psu;
    }
    const reading = toReadingV2(replies, `wm-${endpoint.host}-${endpoint.port}`);
    return { protocol: this.name, family: 'whatsminer', reading };
  }

  /** `restart_btminer` (V2.0.5 §3.2): restarts the mining program. */
  restart(endpoint: Endpoint): Promise<CommandResult> {
    return this.write(endpoint, 'restart_btminer', {}, true);
  }

  /** `reboot` (§3.8): reboots the control board; the miner may close without answering. */
  reboot(endpoint: Endpoint): Promise<CommandResult> {
    return this.write(endpoint, 'reboot', {}, true);
  }

  /** §3.6 "Switch power mode": `set_low_power`, or `set_normal_power` for the miner's normal mode. */
  setMode(endpoint: Endpoint, mode: 'high' | 'low'): Promise<CommandResult> {
    return this.write(endpoint, mode === 'low' ? 'set_low_power' : 'set_normal_power', {}, true);
  }

  /**
   * `update_pools` (§3.1) sets all three pools at once: `pool` becomes pool 1 and the miner's
   * other pools follow as 2 and 3 (their passwords cannot be read back, so they are sent as `x`).
   */
  async setPool(endpoint: Endpoint, pool: PoolSetting): Promise<CommandResult> {
    let current: ApiObject[] = [];
    try {
      current = recordsOf(await this.request(endpoint, 'pools'), 'POOLS');
    } catch {
      // Unreadable: pool 1 alone is still worth setting.
    }
    const others = current
      .filter((item) => text(item.URL) && text(item.URL) !== pool.url)
      .map((item) => ({ url: text(item.URL), worker: text(item.User), password: 'x' }));
    const pools = [pool, ...others].slice(0, 3);
    const params: Record<string, string> = {};
    for (let i = 0; i < 3; i++) {
      params[`pool${i + 1}`] = pools[i]?.url ?? '';
      params[`worker${i + 1}`] = pools[i]?.worker ?? '';
      params[`passwd${i + 1}`] = pools[i]?.password ?? '';
    }
    return this.write(endpoint, 'update_pools', params, false);
  }

  /** A token from `get_token`, reused for its life; `fresh` tells whether it was just issued. */
  private async tokenFor(endpoint: Endpoint): Promise<{ token: V2TokenMessage; fresh: boolean }> {
    const key = endpointKey(endpoint);
    const cached = this.tokens.get(key);
    if (cached && Date.now() - cached.at < TOKEN_LIFE_MS) return { token: cached.token, fresh: false };
    const reply = await this.request(endpoint, 'get_token');
    const status = statusV2(reply);
    if (isErrorV2(status))
      throw new ApiError(status?.msg || `get_token refused (code ${status?.code})`, 'refused');
    const msg = objectAt(reply, 'Msg');
    const token = { time: text(msg.time), salt: text(msg.salt), newsalt: text(msg.newsalt) };
    if (!token.time || !token.salt || !token.newsalt)
      throw new ApiError('get_token answer holds no time, salt and newsalt', 'invalid');
    this.tokens.set(key, { token, at: Date.now() });
    return { token, fresh: true };
  }

  /**
   * One encrypted write (§2.1): `{"enc":1,"data":base64(aes256ecb({cmd, token, …}))}`; the answer is
   * `{"enc":"…"}` encrypted likewise, or a plain error (a token the miner refuses, write access off).
   * A miner that closes without answering after `restart_btminer`/`reboot`/power mode has obeyed.
   */
  private write(
    endpoint: Endpoint,
    cmd: string,
    params: Record<string, string>,
    closeMeansDone: boolean,
  ): Promise<CommandResult> {
    return this.queue.run(endpoint, async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        let token: { token: V2TokenMessage; fresh: boolean };
        try {
          token = await this.tokenFor(endpoint);
        } catch (error) {
          return { ok: false, error: writeFailure(error) };
        }
        const { sign, aesKey } = v2Credentials(this.password, token.token);
        const data = aesEncrypt(JSON.stringify({ cmd, token: sign, ...params }), aesKey, 'zero');
        let answer: string;
        try {
          answer = await this.raw(endpoint, { enc: 1, data });
        } catch (error) {
          if (closeMeansDone && error instanceof ApiError && error.kind === 'closed') return { ok: true };
          return { ok: false, error: writeFailure(error) };
        }
        let reply: ApiObject;
        try {
          reply = decryptAnswer(parseJsonReply(answer), aesKey);
        } catch (error) {
          return { ok: false, error: `unexpected answer to ${cmd}: ${(error as Error).message}` };
        }
        const status = statusV2(reply);
        if (!isErrorV2(status)) return { ok: true };
        if (status?.code === CODE_CHECK_TOKEN && !token.fresh) {
          this.tokens.delete(endpointKey(endpoint)); // expired on the miner (reboot, 30 min): once more
          continue;
        }
        if (status?.code === CODE_CHECK_TOKEN) this.tokens.delete(endpointKey(endpoint));
        return { ok: false, error: status?.msg || `${cmd} refused (code ${status?.code})` };
      }
      return { ok: false, error: `${cmd}: token refused twice` };
    });
  }
}

/** The plain answer inside `{"enc":"…"}` (or `{"enc":1,"data":"…"}`); a plain answer as it is. */
export const decryptAnswer = (reply: ApiObject, aesKey: Buffer): ApiObject => {
  const sealed =
    typeof reply.enc === 'string' ? reply.enc : typeof reply.data === 'string' ? reply.data : null;
  if (sealed === null) return reply;
  let plain: string;
  try {
    plain = aesDecrypt(sealed, aesKey);
  } catch {
    throw new ApiError('the encrypted answer could not be decrypted', 'invalid');
  }
  try {
    return parseJsonReply(plain);
  } catch {
    throw new ApiError('the encrypted answer could not be decrypted (admin password?)', 'invalid');
  }
};
