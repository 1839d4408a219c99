import { createCipheriv } from 'node:crypto';
import snmp, { type Session, type User, type Varbind } from 'net-snmp';
import { DEFAULT_COMMUNITY, type PduConfig } from './config.js';
import { type OutletAction, type OutletState, PDU_VENDORS, type PduVendor } from './vendors.js';

/**
 * SNMP to one switched PDU, with net-snmp: v2c (a community) or v3 (a USM user). Each request
 * opens its own session and closes it when answered, so a dead PDU holds no socket and a v3
 * engine that rebooted is discovered anew. Every failure becomes an `SnmpError` whose message
 * names the PDU and says why, in the agent's own words where it gave any.
 */

/** Why a request failed. */
export type SnmpErrorKind = 'timeout' | 'refused' | 'auth' | 'no_such' | 'unsupported' | 'invalid';

export class SnmpError extends Error {
  constructor(
    message: string,
    readonly kind: SnmpErrorKind,
  ) {
    super(message);
    this.name = 'SnmpError';
  }
}

/**
 * Outlets in one GET: a 24-outlet PDU in one request, some 600 bytes over v2c; above RFC 3417's
 * 484-byte floor but far below the ~1472 agents take in practice.
 */
const GET_CHUNK = 24;

/**
 * OpenSSL 3 (Node 17+) leaves DES out unless Node runs with `--openssl-legacy-provider`, and
 * net-snmp encrypts with Node's crypto: a v3 `des` PDU fails on every request without it.
 */
const desAvailable = ((): boolean => {
  try {
    createCipheriv('des-cbc', Buffer.alloc(8), Buffer.alloc(8));
    return true;
  } catch {
    return false;
  }
})();

/** RFC 3416 error-status names, as agents and `snmpset` print them. */
const statusName = (status: number): string => {
  const name = snmp.ErrorStatus[status] ?? `error-status ${status}`;
  return name === 'GeneralError' ? 'genErr' : name.charAt(0).toLowerCase() + name.slice(1);
};

/** What a refusal most often means on a PDU. */
const refusalHints: Record<string, string> = {
  noAccess: 'no write access for this community or user: a read-only community?',
  authorizationError: 'this community or user is not allowed to do this',
  notWritable: 'the PDU does not let this object be written',
  readOnly: 'the PDU does not let this object be written',
  noSuchName: 'the PDU has no such object: a wrong outlet, or not the configured vendor?',
  noCreation: 'the PDU has no such outlet',
  badValue: 'the PDU refused the value',
  wrongValue: 'the PDU refused the value',
  wrongType: 'the PDU wants another type for this object',
  tooBig: 'the answer would be larger than the PDU sends',
};

const tries = (pdu: PduConfig) =>
  `${pdu.retries + 1} ${pdu.retries ? 'tries' : 'try'} of ${pdu.timeout_ms} ms`;

/** `pdu rack-a (10.0.0.2:161)` */
export const pduWhere = (pdu: Pick<PduConfig, 'name' | 'host' | 'port'>): string =>
  `pdu ${pdu.name} (${pdu.host}:${pdu.port})`;

/** Turns whatever net-snmp reported into one line naming the PDU and, where it said, the agent's reason. */
const toSnmpError = (error: unknown, pdu: PduConfig, what: string): SnmpError => {
  if (error instanceof SnmpError) return error;
  const where = pduWhere(pdu);
  const e = error as Error & { status?: number; code?: unknown };
  switch (e.name) {
    case 'RequestTimedOutError':
      return new SnmpError(
        `${where} did not answer the ${what} (${tries(pdu)}): ${
          pdu.version === '2c' ? 'wrong community' : 'wrong v3 keys'
        }, SNMP off, or unreachable`,
        'timeout',
      );
    case 'RequestFailedError': {
      const name = typeof e.status === 'number' ? statusName(e.status) : e.message;
      const hint = refusalHints[name];
      return new SnmpError(`${where} refused the ${what}: ${name}${hint ? ` (${hint})` : ''}`, 'refused');
    }
    case 'ResponseInvalidError':
      if (e.code === snmp.ResponseInvalidCode.EAuthFailure)
        return new SnmpError(`${where} rejected the SNMPv3 user for the ${what}: ${e.message}`, 'auth');
      return new SnmpError(`${where} gave an invalid answer to the ${what}: ${e.message}`, 'invalid');
    default:
      if (e.code === 'ERR_OSSL_EVP_UNSUPPORTED') return desUnsupported(pdu);
      return new SnmpError(`${where}: ${what} failed: ${e.message ?? String(error)}`, 'invalid');
  }
};

const desUnsupported = (pdu: PduConfig) =>
  new SnmpError(
    `${pduWhere(pdu)}: SNMPv3 DES privacy is not available in this Node.js (OpenSSL 3 disables DES): ` +
      'set priv_protocol: aes on the PDU, or start node with --openssl-legacy-provider',
    'unsupported',
  );

const securityLevels = {
  noAuthNoPriv: snmp.SecurityLevel.noAuthNoPriv,
  authNoPriv: snmp.SecurityLevel.authNoPriv,
  authPriv: snmp.SecurityLevel.authPriv,
} as const;

const openSession = (pdu: PduConfig): Session => {
  const options = { port: pdu.port, timeout: pdu.timeout_ms, retries: pdu.retries, backoff: 1 };
  if (pdu.version === '2c')
    return snmp.createSession(pdu.host, pdu.community ?? DEFAULT_COMMUNITY, {
      ...options,
      version: snmp.Version2c,
    });
  const v3 = pdu.v3;
  if (!v3) throw new SnmpError(`${pduWhere(pdu)}: version 3 without a v3 user`, 'invalid');
  if (v3.level === 'authPriv' && v3.priv_protocol === 'des' && !desAvailable) throw desUnsupported(pdu);
  const user: User = { name: v3.user, level: securityLevels[v3.level] };
  if (v3.level !== 'noAuthNoPriv') {
    user.authProtocol = snmp.AuthProtocols[v3.auth_protocol];
    user.authKey = v3.auth_key ?? '';
  }
  if (v3.level === 'authPriv') {
    user.privProtocol = snmp.PrivProtocols[v3.priv_protocol];
    user.privKey = v3.priv_key ?? '';
  }
  return snmp.createV3Session(pdu.host, user, { ...options, version: snmp.Version3 });
};

type Done<T> = (error: unknown, value?: T) => void;

/** One request on a session of its own; the session is closed however the request ends. */
const request = <T>(pdu: PduConfig, what: string, run: (session: Session, done: Done<T>) => void) =>
  new Promise<T>((resolve, reject) => {
    let session: Session;
    try {
      session = openSession(pdu);
    } catch (error) {
      reject(toSnmpError(error, pdu, what));
      return;
    }
    let settled = false;
    const done: Done<T> = (error, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      try {
        session.close();
      } catch {
        // Already closed by a socket error: nothing left to release.
      }
      if (error) reject(toSnmpError(error, pdu, what));
      else resolve(value as T);
    };
    // net-snmp times requests out itself; this only bounds one it would never settle (v3
    // discovery plus the request, each with its tries, and a margin).
    const guard = setTimeout(
      () => done(Object.assign(new Error('Request timed out'), { name: 'RequestTimedOutError' })),
      2 * pdu.timeout_ms * (pdu.retries + 1) + 1000,
    );
    guard.unref();
    session.on('error', (error) => done(error));
    try {
      run(session, done);
    } catch (error) {
      done(error);
    }
  });

const get = (pdu: PduConfig, oids: string[], what: string) =>
  request<Varbind[]>(pdu, what, (session, done) =>
    session.get(oids, (error, varbinds) => done(error, varbinds ?? [])),
  );

/** The switched outlets of one PDU, addressed by their number on that PDU (1..outlets). */
export class PduClient {
  readonly vendor: PduVendor;

  constructor(readonly pdu: PduConfig) {
    this.vendor = PDU_VENDORS[pdu.vendor];
  }

  get where(): string {
    return pduWhere(this.pdu);
  }

  /** Every outlet's state, index 0 = outlet 1; an outlet the PDU has no row for reads `unknown`. */
  async readStates(): Promise<OutletState[]> {
    const states: OutletState[] = [];
    for (let first = 1; first <= this.pdu.outlets; first += GET_CHUNK) {
      const last = Math.min(this.pdu.outlets, first + GET_CHUNK - 1);
      const oids = [];
      for (let port = first; port <= last; port++) oids.push(`${this.vendor.stateOid}.${port}`);
      const varbinds = await get(this.pdu, oids, 'read of outlet states');
      for (let i = 0; i < oids.length; i++) states.push(this.stateOf(varbinds[i]));
    }
    return states;
  }

  /** One outlet's state. */
  async readState(port: number): Promise<OutletState> {
    const [varbind] = await get(this.pdu, [`${this.vendor.stateOid}.${port}`], `read of outlet ${port}`);
    return this.stateOf(varbind);
  }

  /** The names set on the PDU for its outlets, index 0 = outlet 1 ('' where it has none). */
  async readNames(): Promise<string[]> {
    const oids = Array.from({ length: this.pdu.outlets }, (_, i) => `${this.vendor.nameOid}.${i + 1}`);
    const names: string[] = [];
    for (let i = 0; i < oids.length; i += GET_CHUNK) {
      const varbinds = await get(this.pdu, oids.slice(i, i + GET_CHUNK), 'read of outlet names');
      for (const varbind of varbinds)
        names.push(snmp.isVarbindError(varbind) ? '' : String(varbind.value ?? '').trim());
    }
    return names;
  }

  /** Sends the vendor's command for `action` to outlet `port`; resolves once the PDU accepted it. */
  command(port: number, action: OutletAction): Promise<void> {
    const what = `SET of outlet ${port} to ${action}`;
    const varbind: Varbind = {
      oid: `${this.vendor.commandOid}.${port}`,
      type: snmp.ObjectType.Integer,
      value: this.vendor.commands[action],
    };
    return request<void>(this.pdu, what, (session, done) =>
      session.set([varbind], (error, varbinds) => {
        if (error) return done(error);
        const answer = varbinds?.[0];
        // v2c/v3 agents may answer a SET of a missing row with an exception in the varbind
        // instead of an error-status.
        if (!answer || snmp.isVarbindError(answer))
          return done(
            new SnmpError(
              `${this.where} has no outlet ${port} to switch (${
                answer ? snmp.varbindError(answer) : 'empty answer'
              }): beyond its outlets, or not an ${this.vendor.label}?`,
              'no_such',
            ),
          );
        done(null);
      }),
    );
  }

  private stateOf(varbind: Varbind | undefined): OutletState {
    if (!varbind || snmp.isVarbindError(varbind) || typeof varbind.value !== 'number') return 'unknown';
    return this.vendor.stateOf(varbind.value);
  }
}
