import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type FakeBehaviour, listenFake } from '../fake-server.js';

/**
 * A fake Antminer web interface for tests, written from what stock Bitmain firmware does (see the
 * sources named in `client.ts`): lighttpd asking for HTTP Digest (realm "antMiner Configuration",
 * MD5, qop="auth"; or no qop, or `algorithm=MD5` named), nonces that expire (then `stale=true`),
 * and the CGIs get_system_info, get_miner_conf, set_miner_conf (JSON body, answered
 * `{"stats":…,"code":…,"msg":…}`) and reboot. Its checks are its own code, not the client's, so a
 * client mistake fails here. It can hang, answer bytes that are not HTTP, refuse or ignore a
 * setting, play firmware without get_miner_conf.cgi, and records every request.
 */

export type FakeWebBehaviour = FakeBehaviour;

export interface FakeWebPool {
  url: string;
  user: string;
  pass: string;
}

export interface FakeWebOptions {
  username?: string;
  password?: string;
  realm?: string;
  /** Challenge variants: `qop="auth"` (default) or none (RFC 2069); `algorithm=MD5` named or not (default). */
  qop?: boolean;
  namesAlgorithm?: boolean;
  opaque?: string;
  /** Nonces older than this are answered `stale=true`. Default 60 s. */
  nonceTtlMs?: number;
  /** Overrides get_system_info fields. */
  systemInfo?: Record<string, unknown>;
  /** Overrides get_miner_conf fields at start. */
  conf?: Record<string, unknown>;
  /** set_miner_conf answers this error and changes nothing. */
  refuseSet?: { code: string; msg: string };
  /** set_miner_conf answers success and changes nothing (seen on some S19 XP firmware). */
  ignoreSet?: boolean;
  /** reboot.cgi drops the connection without an answer, as a device going down does; default an empty 200. */
  rebootDrops?: boolean;
  /** Older firmware: no get_miner_conf.cgi (404), set_miner_conf.cgi takes form fields. */
  legacy?: boolean;
  behaviour?: FakeWebBehaviour;
  host?: string;
  port?: number;
}

export interface FakeWebRequest {
  method: string;
  path: string;
  /** Valid credentials came with it. */
  authorized: boolean;
  body: string;
}

export interface FakeWeb {
  readonly host: string;
  readonly port: number;
  options: FakeWebOptions;
  behaviour: FakeWebBehaviour;
  /** get_miner_conf as it stands: set_miner_conf changes it. */
  conf: Record<string, unknown> & { pools: FakeWebPool[] };
  readonly requests: FakeWebRequest[];
  /** Reboots obeyed. */
  reboots: number;
  /** Answer this many more otherwise valid requests 401 `stale=true`, as if their nonce had expired. */
  staleNext: number;
  stop(): Promise<void>;
}

const defaultSystemInfo = {
  minertype: 'Antminer S19j Pro',
  nettype: 'DHCP',
  netdevice: 'eth0',
  macaddr: '02:AB:CD:00:12:34',
  hostname: 'Antminer',
  ipaddress: '127.0.0.1',
  netmask: '255.255.255.0',
  gateway: '',
  dnsservers: '',
  system_mode: 'GNU/Linux',
  system_kernel_version: 'Linux 4.6.0-xilinx-gff8137b-dirty #34 SMP PREEMPT Fri Jul 9 17:26:33 CST 2021',
  system_filesystem_version: 'Mon Sep 13 17:01:56 CST 2021',
  firmware_type: 'Release',
  serinum: 'JYZZD1BBCJABG0123',
};

const defaultConf = () => ({
  pools: [
    { url: 'stratum+tcp://btc.viabtc.io:3333', user: 'acct.001', pass: '123' },
    { url: 'stratum+tcp://backup.example.com:3333', user: 'acct.001', pass: '123' },
    { url: '', user: '', pass: '' },
  ],
  'api-listen': true,
  'api-network': true,
  'api-groups': 'A:stats:pools:devs:summary:version',
  'api-allow': 'A:0/0,W:*',
  'bitmain-fan-ctrl': false,
  'bitmain-fan-pwm': '100',
  'bitmain-use-vil': true,
  'bitmain-freq': '675',
  'bitmain-voltage': '1400',
  'bitmain-ccdelay': '0',
  'bitmain-pwth': '0',
  'bitmain-work-mode': '0',
  'bitmain-freq-level': '100',
});

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** `key=value` / `key="value"` pairs of an `Authorization: Digest …` header. */
const digestFields = (header: string): Record<string, string> | null => {
  const match = /^Digest\s+(.*)$/is.exec(header.trim());
  if (!match) return null;
  const fields: Record<string, string> = {};
  for (const pair of match[1]!.matchAll(/([A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g))
    fields[pair[1]!.toLowerCase()] = pair[2] !== undefined ? pair[2].replace(/\\(.)/g, '$1') : pair[3]!;
  return fields;
};

const ok = { stats: 'success', code: 'M000', msg: 'OK!' };
const invalid = { stats: 'error', code: 'M001', msg: 'Invalid configuration' };

/** A set_miner_conf body as the firmware's page sends it, or null. */
const readSetBody = (body: string) => {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const set = value as Record<string, unknown>;
  const pools = set.pools;
  const poolOk = (p: unknown) =>
    typeof p === 'object' &&
    p !== null &&
    ['url', 'user', 'pass'].every((k) => typeof (p as Record<string, unknown>)[k] === 'string');
  if (!Array.isArray(pools) || pools.length !== 3 || !pools.every(poolOk)) return null;
  const mode = set['miner-mode'];
  if (mode !== undefined && (typeof mode !== 'number' || ![0, 1, 3].includes(mode))) return null;
  return { set, pools: pools as FakeWebPool[], mode: mode as number | undefined };
};

export const startFakeWeb = async (options: FakeWebOptions = {}): Promise<FakeWeb> => {
  const nonces = new Map<string, { issued: number; lastNc: number }>();
  const fake: FakeWeb = {
    host: options.host ?? '127.0.0.1',
    port: 0,
    options,
    behaviour: options.behaviour ?? 'normal',
    conf: { ...defaultConf(), ...options.conf } as FakeWeb['conf'],
    requests: [],
    reboots: 0,
    staleNext: 0,
    stop: () => listening.stop(),
  };

  const challenge = (res: ServerResponse, stale: boolean) => {
    const o = fake.options;
    const nonce = randomBytes(16).toString('hex');
    nonces.set(nonce, { issued: Date.now(), lastNc: 0 });
    const parts = [`realm="${o.realm ?? 'antMiner Configuration'}"`, `nonce="${nonce}"`];
    if (o.namesAlgorithm) parts.push('algorithm=MD5');
    if (o.qop !== false) parts.push('qop="auth"');
    if (o.opaque !== undefined) parts.push(`opaque="${o.opaque}"`);
    if (stale) parts.push('stale=true');
    res.writeHead(401, { 'Content-Type': 'text/html', 'WWW-Authenticate': `Digest ${parts.join(', ')}` });
    res.end('<html><body><h1>401 - Unauthorized</h1></body></html>');
  };

  /** 'ok', 'stale' (good credentials, old nonce) or 'refused'. */
  const check = (req: IncomingMessage): 'ok' | 'stale' | 'refused' => {
    const o = fake.options;
    const f = digestFields(req.headers.authorization ?? '');
    if (!f) return 'refused';
    const realm = o.realm ?? 'antMiner Configuration';
    if (f.username !== (o.username ?? 'root') || f.realm !== realm || f.uri !== req.url) return 'refused';
    if (o.opaque !== undefined && f.opaque !== o.opaque) return 'refused';
    const nonce = nonces.get(f.nonce ?? '');
    if (!nonce) return 'refused';
    const ha1 = md5(`${f.username}:${realm}:${o.password ?? 'root'}`);
    const ha2 = md5(`${req.method}:${f.uri}`);
    let expected: string;
    if (o.qop !== false) {
      const nc = Number.parseInt(f.nc ?? '', 16);
      if (f.qop !== 'auth' || !f.cnonce || !/^[0-9a-f]{8}$/i.test(f.nc ?? '') || nc <= nonce.lastNc)
        return 'refused';
      expected = md5(`${ha1}:${f.nonce}:${f.nc}:${f.cnonce}:auth:${ha2}`);
      if (expected === f.response) nonce.lastNc = nc;
    } else expected = md5(`${ha1}:${f.nonce}:${ha2}`);
    if (expected !== f.response) return 'refused';
    if (Date.now() - nonce.issued > (o.nonceTtlMs ?? 60_000) || fake.staleNext > 0) {
      if (fake.staleNext > 0) fake.staleNext--;
      return 'stale';
    }
    return 'ok';
  };

  const json = (res: ServerResponse, value: unknown) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(value));
  };

  const serve = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const o = fake.options;
    const path = (req.url ?? '').split('?')[0];
    if (path === '/cgi-bin/get_system_info.cgi') return json(res, { ...defaultSystemInfo, ...o.systemInfo });
    if (path === '/cgi-bin/get_miner_conf.cgi' && !o.legacy) return json(res, fake.conf);
    if (path === '/cgi-bin/set_miner_conf.cgi') {
      if (o.legacy) {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        return res.end('ok');
      }
      if (o.refuseSet) return json(res, { stats: 'error', ...o.refuseSet });
      const set = readSetBody(body);
      if (!set) return json(res, invalid);
      if (o.ignoreSet) return json(res, ok);
      fake.conf.pools = set.pools.map((p) => ({ url: p.url, user: p.user, pass: p.pass }));
      if (set.mode !== undefined) fake.conf['bitmain-work-mode'] = String(set.mode);
      if (typeof set.set['bitmain-fan-ctrl'] === 'boolean')
        fake.conf['bitmain-fan-ctrl'] = set.set['bitmain-fan-ctrl'];
      if (typeof set.set['bitmain-fan-pwm'] === 'string')
        fake.conf['bitmain-fan-pwm'] = set.set['bitmain-fan-pwm'];
      if (typeof set.set['freq-level'] === 'string') fake.conf['bitmain-freq-level'] = set.set['freq-level'];
      return json(res, ok);
    }
    if (path === '/cgi-bin/reboot.cgi') {
      fake.reboots++;
      if (o.rebootDrops) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end();
    }
    res.writeHead(404, { 'Content-Type': 'text/html' });
    res.end('<html><body><h1>404 - Not Found</h1></body></html>');
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const record: FakeWebRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        authorized: false,
        body,
      };
      fake.requests.push(record);
      if (fake.behaviour === 'hang') return; // accepted, never answered, never closed
      if (fake.behaviour === 'garbage') {
        req.socket.end(Buffer.from('\u0001\u00ff{"stats":"succ\u0000~~ not http\r\n\r\n', 'latin1'));
        return;
      }
      const verdict = check(req);
      if (verdict !== 'ok') return challenge(res, verdict === 'stale');
      record.authorized = true;
      serve(req, res, body);
    });
  });
  const listening = await listenFake(server, fake.host, options.port);
  Object.defineProperty(fake, 'port', { value: listening.port });
  return fake;
};
