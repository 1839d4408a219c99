import dgram from 'node:dgram';
import snmp, { type User } from 'net-snmp';
import type { PduConfigInput } from './config.js';
import { PDU_VENDORS } from './vendors.js';

/**
 * A fake APC switched rack PDU for tests: net-snmp's own agent on 127.0.0.1, serving the
 * PowerNet-MIB outlet status and control tables (vendors.ts) the way the MIB describes them.
 * Access as on a PDU out of the box: v2c community `public` reads, `private` reads and writes,
 * any other community gets no answer at all; v3 users read and write. It keeps each outlet's
 * state, obeys immediateOn / immediateOff / immediateReboot (off, then on after `rebootDelayMs`),
 * records every SET it obeyed, and can be told to stop answering (while still obeying), to lose
 * some answers, or to accept SETs without acting on them.
 */

export interface FakePduOptions {
  /** Outlets 1..outlets (default 8). */
  outlets?: number;
  /** Every outlet's state at start (default on). */
  initial?: 'on' | 'off';
  readCommunity?: string;
  writeCommunity?: string;
  /** SNMPv3 users with write access (default one authPriv user, see `FAKE_V3_USER`). */
  users?: User[];
  /** How long an immediateReboot keeps the outlet off, ms (default 200). */
  rebootDelayMs?: number;
  /** How long the agent takes to answer a SET, ms (default 0): makes overlapping SETs visible. */
  setDelayMs?: number;
  host?: string;
}

/** A SET the fake obeyed. */
export interface FakeSet {
  port: number;
  /** The INTEGER written: 1 immediateOn, 2 immediateOff, 3 immediateReboot. */
  command: number;
  /** Date.now() when the agent took it. */
  at: number;
}

export interface FakePdu {
  readonly host: string;
  /** The UDP port the agent listens on (picked free at start). */
  port: number;
  /** Every outlet's state now, index 0 = outlet 1. */
  readonly states: ('on' | 'off')[];
  readonly sets: FakeSet[];
  /** The agent's own complaints: unknown communities, wrong v3 digests … */
  readonly authFailures: string[];
  /** Most SETs the agent was ever working on at once. */
  maxConcurrentSets: number;
  /** Receive and obey, but never answer. */
  silent: boolean;
  /** Drop this many answers, then answer again (lost UDP replies). */
  dropAnswers: number;
  /** Accept SETs, record them, and leave the outlets as they were (a relay that sticks). */
  stuck: boolean;
  stop(): Promise<void>;
}

/** The default v3 user: SHA authentication, AES privacy. */
export const FAKE_V3_USER = {
  name: 'fbox',
  level: snmp.SecurityLevel.authPriv,
  authProtocol: snmp.AuthProtocols.sha,
  authKey: 'fbox-auth-key',
  privProtocol: snmp.PrivProtocols.aes,
  privKey: 'fbox-priv-key',
} satisfies User;

// The part of net-snmp's agent API used here (its typings leave the agent `any`).
interface MibRequest {
  oid: string;
  operation: number;
  instanceNode?: { value: unknown };
  setValue?: unknown;
  testSet?: boolean;
  done(error?: { errorStatus: number }): void;
}
interface Agent {
  getAuthorizer(): {
    addCommunity(community: string): void;
    addUser(user: User): void;
    getAccessControlModel(): {
      setCommunityAccess(community: string, level: number): void;
      setUserAccess(user: string, level: number): void;
    };
  };
  getMib(): {
    registerProvider(provider: object): void;
    addTableRow(provider: string, row: unknown[]): void;
  };
  close(callback?: () => void): void;
}

const apc = PDU_VENDORS.apc;
/** The table entry OIDs: the column OIDs less their column number. */
const entryOf = (columnOid: string) => columnOid.slice(0, columnOid.lastIndexOf('.'));
const lastNumber = (oid: string) => Number(oid.slice(oid.lastIndexOf('.') + 1));
/** An instance OID's column: the number before its row index. */
const columnOf = (instanceOid: string) => lastNumber(entryOf(instanceOid));

const integer = snmp.ObjectType.Integer;
const readOnly = snmp.MaxAccess['read-only'];

/**
 * A `pdus` entry of collector.yaml for `fake`: an APC PDU named `rack-a`, all its outlets from FBOX
 * outlet 1, answers waited for 1 s and asked once more.
 */
export const pduEntryFor = (fake: FakePdu, overrides: Partial<PduConfigInput> = {}): PduConfigInput => ({
  name: 'rack-a',
  host: fake.host,
  port: fake.port,
  vendor: 'apc',
  outlets: fake.states.length,
  first_outlet: 1,
  timeout_ms: 1000,
  retries: 1,
  ...overrides,
});

export const startFakePdu = async (options: FakePduOptions = {}): Promise<FakePdu> => {
  const host = options.host ?? '127.0.0.1';
  const outlets = options.outlets ?? 8;
  const rebootDelayMs = options.rebootDelayMs ?? 200;
  const setDelayMs = options.setDelayMs ?? 0;
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let agent: Agent | undefined;
  const fake: FakePdu = {
    host,
    port: 0,
    states: Array.from({ length: outlets }, () => options.initial ?? 'on'),
    sets: [],
    authFailures: [],
    maxConcurrentSets: 0,
    silent: false,
    stuck: false,
    dropAnswers: 0,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        if (agent) agent.close(() => resolve());
        else resolve();
      }),
  };
  const { states, sets } = fake;

  // net-snmp's agent binds the port it is given, and takes 0 for "161": its sockets come from
  // this stand-in, which binds an ephemeral port instead and can drop answers.
  let socket: dgram.Socket | undefined;
  const dgramModule = {
    createSocket: (type: dgram.SocketType) => {
      const created = dgram.createSocket(type);
      const bind = created.bind.bind(created);
      const send = created.send.bind(created) as (...args: unknown[]) => void;
      Object.assign(created, {
        bind: (_port: number, address?: string) => bind(0, address),
        send: (...args: unknown[]) => {
          if (fake.silent) return;
          if (fake.dropAnswers > 0) fake.dropAnswers--;
          else send(...args);
        },
      });
      socket = created;
      return created;
    },
  };

  const stateValue = (port: number) => (states[port - 1] === 'off' ? 2 : 1);
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const obey = (port: number, command: number) => {
    sets.push({ port, command, at: Date.now() });
    if (fake.stuck) return;
    if (command === apc.commands.on) states[port - 1] = 'on';
    else if (command === apc.commands.off) states[port - 1] = 'off';
    else if (command === apc.commands.reboot) {
      states[port - 1] = 'off';
      later(rebootDelayMs, () => {
        states[port - 1] = 'on';
      });
    }
  };

  /** Reads come from `states`; the control column reads as the state too, as the MIB says. */
  const handler = (valueColumn: number) => (request: MibRequest) => {
    const port = lastNumber(request.oid);
    if (request.operation !== snmp.PduType.SetRequest) {
      if (request.instanceNode && columnOf(request.oid) === valueColumn)
        request.instanceNode.value = stateValue(port);
      request.done();
      return;
    }
    // net-snmp calls a SET's handler twice: a test pass, then (all varbinds being fine) a commit.
    if (request.testSet) {
      inFlight++;
      fake.maxConcurrentSets = Math.max(fake.maxConcurrentSets, inFlight);
      if (setDelayMs > 0) later(setDelayMs, () => request.done());
      else request.done();
      return;
    }
    inFlight--;
    obey(port, Number(request.setValue));
    request.done();
  };

  agent = snmp.createAgent(
    {
      address: host,
      port: 161,
      dgramModule,
      accessControlModelType: snmp.AccessControlModelType.Simple,
    },
    (error: Error | null) => {
      if (error) fake.authFailures.push(error.message);
    },
  ) as Agent;

  const authorizer = agent.getAuthorizer();
  const access = authorizer.getAccessControlModel();
  const readCommunity = options.readCommunity ?? 'public';
  const writeCommunity = options.writeCommunity ?? 'private';
  authorizer.addCommunity(readCommunity);
  authorizer.addCommunity(writeCommunity);
  access.setCommunityAccess(readCommunity, snmp.AccessLevel.ReadOnly);
  access.setCommunityAccess(writeCommunity, snmp.AccessLevel.ReadWrite);
  for (const user of options.users ?? [FAKE_V3_USER]) {
    authorizer.addUser(user);
    access.setUserAccess(user.name, snmp.AccessLevel.ReadWrite);
  }

  const mib = agent.getMib();
  mib.registerProvider({
    name: 'rPDUOutletStatusEntry',
    type: snmp.MibProviderType.Table,
    oid: entryOf(apc.stateOid),
    maxAccess: snmp.MaxAccess['not-accessible'],
    tableColumns: [
      { number: 1, name: 'rPDUOutletStatusIndex', type: integer, maxAccess: readOnly },
      {
        number: lastNumber(apc.nameOid),
        name: 'rPDUOutletStatusOutletName',
        type: snmp.ObjectType.OctetString,
        maxAccess: readOnly,
      },
      {
        number: lastNumber(apc.stateOid),
        name: 'rPDUOutletStatusOutletState',
        type: integer,
        maxAccess: readOnly,
      },
    ],
    tableIndex: [{ columnName: 'rPDUOutletStatusIndex' }],
    handler: handler(lastNumber(apc.stateOid)),
  });
  mib.registerProvider({
    name: 'rPDUOutletControlEntry',
    type: snmp.MibProviderType.Table,
    oid: entryOf(apc.commandOid),
    maxAccess: snmp.MaxAccess['not-accessible'],
    tableColumns: [
      { number: 1, name: 'rPDUOutletControlIndex', type: integer, maxAccess: readOnly },
      {
        number: lastNumber(apc.commandOid),
        name: 'rPDUOutletControlOutletCommand',
        type: integer,
        maxAccess: snmp.MaxAccess['read-write'],
        constraints: {
          enumeration: {
            1: 'immediateOn',
            2: 'immediateOff',
            3: 'immediateReboot',
            4: 'delayedOn',
            5: 'delayedOff',
            6: 'delayedReboot',
            7: 'cancelPendingCommand',
          },
        },
      },
    ],
    tableIndex: [{ columnName: 'rPDUOutletControlIndex' }],
    handler: handler(lastNumber(apc.commandOid)),
  });
  for (let port = 1; port <= outlets; port++) {
    mib.addTableRow('rPDUOutletStatusEntry', [port, `Outlet ${port}`, stateValue(port)]);
    mib.addTableRow('rPDUOutletControlEntry', [port, stateValue(port)]);
  }

  const bound = socket;
  if (!bound) throw new Error('net-snmp agent opened no socket');
  await new Promise<void>((resolve, reject) => {
    bound.once('listening', resolve);
    bound.once('error', reject);
  });
  fake.port = bound.address().port;
  return fake;
};
