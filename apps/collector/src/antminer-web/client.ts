import type { z } from 'zod';
import { KeyedQueue } from '../keyed-queue.js';
import type { CommandResult, PoolSetting } from '../protocol.js';
import { digestRequest, HttpError, type HttpReply } from './digest.js';
import {
  ANTMINER_WORK_MODE,
  type AntminerMinerConf,
  AntminerMinerConfSchema,
  type AntminerPool,
  type AntminerSystemInfo,
  AntminerSystemInfoSchema,
  type AntminerWorkMode,
  CgiAnswerSchema,
  EMPTY_POOL,
  toSetMinerConf,
  workModeOf,
} from './miner-conf.js';

/**
 * Antminer's web CGI (stock Bitmain firmware, lighttpd on port 80, HTTP Digest, realm
 * "antMiner Configuration", `root`/`root` out of the box): what the CGMiner API on 4028 cannot do,
 * power mode, pools and reboot.
 *
 * Followed (read, none copied):
 * - pyasic `pyasic/web/antminer.py` (AntminerModernWebAPI: the CGI names, Digest auth, JSON POST
 *   to set_miner_conf.cgi), `pyasic/config/mining/__init__.py` (`bitmain-work-mode` read as
 *   "0" normal, "1" sleep, "3" low power; written as `miner-mode`), `pyasic/config/pools.py`
 *   (always three pools, empty ones as `{"url":"","user":"","pass":""}`).
 * - Public Rust, Go and TypeScript clients of the same CGIs (found by code search): the body the
 *   firmware's web page posts is `{"bitmain-fan-ctrl","bitmain-fan-pwm","freq-level","miner-mode",
 *   "pools"}`, built from get_miner_conf's `bitmain-fan-ctrl`, `bitmain-fan-pwm`,
 *   `bitmain-freq-level` and `bitmain-work-mode` (sometimes "", read as normal). A field note on
 *   S19 XP models: a body with only the work mode was answered "success" and not applied; the whole
 *   setting with a numeric `miner-mode` was. Hence the full body, and the read-back below.
 * - A public "Stock Bitmain Firmware API" write-up (KS5 Pro / S19): get_system_info.cgi fields,
 *   the `{"stats":"success"|"error","code":"M000","msg":"OK!"}` answers, reboot.cgi by GET.
 * - The S17 firmware's own CGI scripts (kde2podfreebsd/Bitmain-Antminer-S17-Reverse-Firmware):
 *   reboot.cgi stops the miner and reboots, so the connection may drop instead of answering; and
 *   that firmware's set_miner_conf.cgi takes positional form fields, not JSON, and has no
 *   get_miner_conf.cgi. Every write here reads get_miner_conf.cgi first, so on such firmware it
 *   stops at the 404 and never posts a body that firmware would misread.
 */

export interface AntminerWebOptions {
  /** Web login; stock firmware ships `root`. */
  username?: string;
  /** Stock firmware ships `root`. */
  password?: string;
  /** Default 80. */
  port?: number;
  /** Each read (Digest round trips included), ms. Default 10 000. */
  timeoutMs?: number;
  /** set_miner_conf and reboot, ms: firmware restarts its miner before answering. Default 60 000. */
  writeTimeoutMs?: number;
}

// Old firmware wrote these values into its conf file unescaped; a quote would break the file.
const unsafe = (value: string) =>
  [...value].some((c) => c === '"' || c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const readJson = (reply: HttpReply, what: string, where: string): unknown => {
  if (reply.status !== 200)
    throw new HttpError(`${where} answered HTTP ${reply.status} to ${what}`, 'status', true);
  try {
    return JSON.parse(reply.body);
  } catch {
    throw new HttpError(
      `${where} answered ${what} with something that is not JSON: ${reply.body.trim().slice(0, 120)}`,
      'invalid',
      true,
    );
  }
};

const parseOrNull = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
};

const failure = (error: unknown): CommandResult => {
  if (!(error instanceof HttpError)) throw error;
  const unreachable = ['connect', 'timeout', 'closed', 'aborted'].includes(error.kind);
  return { ok: false, error: unreachable ? `miner unreachable: ${error.message}` : error.message };
};

/**
 * One client for the web CGIs of every Antminer at the site (one login, one port). Reads throw an
 * `HttpError` saying why; writes resolve with a `CommandResult` carrying the firmware's own
 * message when it refuses. Writes to one miner run one at a time (each is read-modify-write).
 */
export class AntminerWeb {
  readonly port: number;
  private readonly writes = new KeyedQueue<string>();

  constructor(private readonly options: AntminerWebOptions = {}) {
    this.port = options.port ?? 80;
  }

  private where(host: string) {
    return `${host}:${this.port}`;
  }

  private call(host: string, path: string, write: boolean, body?: unknown) {
    return digestRequest({
      host,
      port: this.port,
      path,
      method: body === undefined ? 'GET' : 'POST',
      ...(body !== undefined && { body: JSON.stringify(body) }),
      username: this.options.username ?? 'root',
      password: this.options.password ?? 'root',
      timeoutMs: write ? (this.options.writeTimeoutMs ?? 60_000) : (this.options.timeoutMs ?? 10_000),
    });
  }

  private async read<T>(host: string, cgi: string, schema: z.ZodType<T>): Promise<T> {
    const reply = await this.call(host, `/cgi-bin/${cgi}`, false);
    const parsed = schema.safeParse(readJson(reply, cgi, this.where(host)));
    if (!parsed.success)
      throw new HttpError(
        `${this.where(host)}: unexpected ${cgi} answer (${parsed.error.issues[0]?.message})`,
        'invalid',
        true,
      );
    return parsed.data;
  }

  /** get_system_info.cgi: model (`minertype`), serial (`serinum`), MAC, firmware build. */
  systemInfo(host: string): Promise<AntminerSystemInfo> {
    return this.read(host, 'get_system_info.cgi', AntminerSystemInfoSchema);
  }

  /** get_miner_conf.cgi: pools, `bitmain-work-mode` and the rest of the miner's configuration. */
  minerConf(host: string): Promise<AntminerMinerConf> {
    return this.read(host, 'get_miner_conf.cgi', AntminerMinerConfSchema);
  }

  /** Writes `conf` (as read, then changed) back with set_miner_conf.cgi, after earlier writes to `host`. */
  setMinerConf(host: string, conf: AntminerMinerConf): Promise<CommandResult> {
    return this.writes.run(host, () => this.post(host, conf));
  }

  private async post(host: string, conf: AntminerMinerConf): Promise<CommandResult> {
    try {
      const reply = await this.call(host, '/cgi-bin/set_miner_conf.cgi', true, toSetMinerConf(conf));
      const answer = CgiAnswerSchema.safeParse(readJson(reply, 'set_miner_conf.cgi', this.where(host)));
      if (!answer.success)
        return {
          ok: false,
          error: `unexpected answer to set_miner_conf: ${reply.body.trim().slice(0, 200)}`,
        };
      if (answer.data.stats.toLowerCase() === 'success') return { ok: true };
      return {
        ok: false,
        error: answer.data.msg || answer.data.code || `set_miner_conf: ${answer.data.stats}`,
      };
    } catch (error) {
      return failure(error);
    }
  }

  /** Sets the work mode, every other setting kept, and reads it back. */
  setWorkMode(host: string, mode: AntminerWorkMode): Promise<CommandResult> {
    const wanted = ANTMINER_WORK_MODE[mode];
    return this.change(host, (conf) => ({ ...conf, 'bitmain-work-mode': String(wanted) }), {
      holds: (conf) => workModeOf(conf) === wanted,
      what: `work mode ${wanted} (${mode})`,
    });
  }

  /** Makes `pool` the first of the three pools, the other two kept, and reads it back. */
  setFirstPool(host: string, pool: PoolSetting): Promise<CommandResult> {
    const first: AntminerPool = { url: pool.url.trim(), user: pool.worker.trim(), pass: pool.password };
    if (!first.url || !first.user)
      return Promise.resolve({ ok: false, error: 'pool url and worker are required' });
    if (unsafe(first.url + first.user + first.pass))
      return Promise.resolve({
        ok: false,
        error: 'pool url, worker and password may not hold quotes, backslashes or control characters',
      });
    return this.change(
      host,
      (conf) => ({ ...conf, pools: [first, conf.pools[1] ?? EMPTY_POOL, conf.pools[2] ?? EMPTY_POOL] }),
      {
        holds: (conf) => conf.pools[0]?.url === first.url && conf.pools[0]?.user === first.user,
        what: `pool 1 ${first.url} (${first.user})`,
      },
    );
  }

  /**
   * reboot.cgi. Firmware answers it in different ways (a JSON status, an empty page, nothing at
   * all as the device goes down): anything but a JSON error, or a connection dropped after the
   * login was accepted, counts as done.
   */
  reboot(host: string): Promise<CommandResult> {
    return this.writes.run(host, async () => {
      let reply: HttpReply;
      try {
        reply = await this.call(host, '/cgi-bin/reboot.cgi', true);
      } catch (error) {
        if (error instanceof HttpError && error.kind === 'closed' && error.authorized) return { ok: true };
        return failure(error);
      }
      if (reply.status !== 200)
        return { ok: false, error: `${this.where(host)} answered HTTP ${reply.status} to reboot.cgi` };
      const answer = CgiAnswerSchema.safeParse(parseOrNull(reply.body));
      if (answer.success && answer.data.stats.toLowerCase() === 'error')
        return { ok: false, error: answer.data.msg || answer.data.code || 'reboot refused' };
      return { ok: true };
    });
  }

  /**
   * Read, change, write, read back. The read-back catches firmware that answers "OK!" and keeps
   * its old setting; when the read-back itself fails (the miner restarting) the write stands.
   */
  private change(
    host: string,
    edit: (conf: AntminerMinerConf) => AntminerMinerConf,
    check: { holds: (conf: AntminerMinerConf) => boolean; what: string },
  ): Promise<CommandResult> {
    return this.writes.run(host, async () => {
      let conf: AntminerMinerConf;
      try {
        conf = await this.minerConf(host);
      } catch (error) {
        return failure(error);
      }
      const written = await this.post(host, edit(conf));
      if (!written.ok) return written;
      const after = await this.minerConf(host).catch(() => null);
      if (after && !check.holds(after))
        return {
          ok: false,
          error: `the miner accepted ${check.what} but its configuration does not show it`,
        };
      return { ok: true };
    });
  }
}
