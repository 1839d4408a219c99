import { Code, type Endpoint, type EndpointName, endpoints } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from './build-test-app.js';
import { createFbox, createMiners, createTank } from './device-factories.js';
import { createArea, createMaster, createSubAccount, get, login, post, type TestUser } from './factories.js';
import { idFieldsOf, isIdField, sample, UnknownReference } from './schema-sample.js';
import { changedTables, snapshot, tableNames } from './table-snapshot.js';

/**
 * Tenant isolation of EVERY endpoint of the contract table (DESIGN §6: a foreign id answers "not
 * found" and changes nothing). Driven by `endpoints`, so an endpoint added later is swept without
 * touching this file; its input is generated from its zod schema (schema-sample.ts) with every
 * id-like field pointing at an object the caller must not reach:
 *  (a) the master of account A against the objects of account B;
 *  (b) an administrator of A (managing mine A1 only) against A's other mine A2.
 * Each endpoint is called with all references foreign, then with one reference foreign at a time
 * and the others the caller's own (so "own mine + foreign device", or "own FBOX moved to a foreign
 * mine", are tried too). The answer must be NOT_FOUND or FORBIDDEN, must not contain any name of
 * the foreign objects, and no table may change. To extend the sweep to a new kind of object, add it
 * to `Tenant`, create it in `tenant()`, and name the fields (or `id` paths) that refer to it below.
 */

/** The objects of one mine that endpoints can refer to. */
interface Tenant {
  areaId: number;
  fboxId: number;
  tankId: number;
  minerId: number;
  commandId: string;
  batchId: string;
  userId: number;
  observerLinkId: number;
  poolSubaccountId: number;
  mqttClientId: number;
  groupId: number;
  rebootTaskId: number;
  tempTaskId: number;
  runId: number;
  /** The mine's open alert. */
  alertId: number;
  /** One of the mine's alert rules. */
  alertRuleId: number;
  /** A message in the inbox of the tenant's user, about the mine. */
  messageId: number;
  /** A data board of the mine covering its FBOX. */
  boardId: number;
  /** A camera of its FBOX, and one captured image of it. */
  cameraId: number;
  imageId: number;
  /** A miner log export of the mine (its one miner). */
  logExportId: number;
  /** A tank board of the mine (the whole mine): a board of another type answers "not found" anyway. */
  tankBoardId: number;
  /** A miner commissioning board of the mine. */
  testBoardId: number;
}

/** Field name → the object it refers to. */
const fieldRefs: Record<string, keyof Tenant> = {
  area_id: 'areaId',
  area_ids: 'areaId',
  group_id: 'groupId',
  group_ids: 'groupId',
  task_id: 'rebootTaskId',
  run_id: 'runId',
  miner_ids: 'minerId',
  to_area_id: 'areaId',
  mine_id: 'areaId',
  fbox_id: 'fboxId',
  fbox_ids: 'fboxId',
  tank_id: 'tankId',
  miner_id: 'minerId',
  user_id: 'userId',
  batch_id: 'batchId',
  camera_id: 'cameraId',
};

/** What `id` / `ids` name, by the endpoint's path. */
const idRefs: [RegExp, keyof Tenant][] = [
  // Before the generic fbox.area entry: the first match wins.
  [/\/fbox\.area\/revoke_client$/, 'mqttClientId'],
  [/\/fbox\.boxlist\//, 'fboxId'],
  [/\/fbox\.oillist\/(set|del)_alert_setting$/, 'alertRuleId'],
  [/\/fbox\.oillist\//, 'tankId'],
  [/\/fbox\.miner\//, 'minerId'],
  [/\/fbox\.area\//, 'areaId'],
  [/\/fbox\.command\//, 'commandId'],
  [/\/fbox\.user\//, 'userId'],
  [/\/fbox\.pool\//, 'observerLinkId'],
  [/\/fbox\.warnning\//, 'alertId'],
  [/\/fbox\.notify\/alert$/, 'alertId'],
  [/\/fbox\.message\//, 'messageId'],
  [/\/admin\/fbox\/config\//, 'fboxId'],
  [/\/minerGroup\//, 'groupId'],
  [/\/taskReboot\//, 'rebootTaskId'],
  [/\/taskTemp\//, 'tempTaskId'],
  [/\/admin\/area\/pool\//, 'poolSubaccountId'],
  [/\/zlm\/capturedImage$/, 'imageId'],
  [/\/zlm\/camera\//, 'cameraId'],
  // A new export's `ids` name FBOXes (the sample's scope); the other calls' `id` an export.
  [/\/admin\/log\/export$/, 'fboxId'],
  [/\/admin\/log\/export\//, 'logExportId'],
  [/\/fbox\.board\/tanks$/, 'tankBoardId'],
  [/\/fbox\.board\/test$/, 'testBoardId'],
  [/\/fbox\.board\//, 'boardId'],
];

/**
 * Endpoints that name no object of another account by design: each acts on the caller's own
 * account or whole scope. They take no id-like field (checked below) — except getUserInfo, whose
 * legacy `id`/`area_id` are ignored (checked: it answers the caller's own account). Reads among
 * them are called and must not reveal a foreign name; writes are not called (they would change the
 * caller's own account, which is their purpose).
 */
const ownAccount: Partial<Record<EndpointName, string>> = {
  logout: "ends the caller's own session",
  getUserInfo: "answers the caller's own account; the legacy id/area_id are ignored",
  setUserInfo: "edits the caller's own account",
  changePassword: "changes the caller's own password",
  totpSetup: "starts the caller's own Google Authenticator setup",
  totpEnable: "confirms the caller's own Google Authenticator",
  totpDisable: "turns off the caller's own Google Authenticator",
  areaList: "lists the caller's own mines",
  areaCreate: 'creates a mine owned by the caller (master only)',
  unreadCount: "counts the caller's own notifications",
  ingestStats: "ingest counters of the caller's own devices (master only)",
  oplogUsers: "lists the users of the caller's own log records",
  subAccountList: "lists the caller's own sub-accounts (master only)",
  ruleList: "answers the caller's own role and rules",
  realIp: "answers the caller's own IP address",
  overclockPolicy: "answers the caller's own account's last overclock policy",
  mineList: "lists the caller's own mines with their Agent Keys (masters and administrators)",
  notifyChannels: 'answers which push channels the server is configured for',
  notifyTest: "sends a test notification to the caller's own saved addresses",
  notifyLanguage: "records the caller's own notification language",
};

const table = (Object.entries(endpoints) as [EndpointName, Endpoint][]).filter(
  ([, e]) => e.permission !== 'public',
);
const schemaOf = (e: Endpoint) => (e.method === 'GET' ? e.query : e.body);

/** A mine with an FBOX, a tank, a miner, a command batch and alerts; its names carry `marker`. */
const tenant = async (
  app: FastifyInstance,
  owner: TestUser,
  ownerToken: string,
  marker: string,
  userId: number,
): Promise<Tenant> => {
  const area = await createArea(app, owner.id, `${marker} mine`);
  const fbox = await createFbox(app, area.id, { name: `${marker} box` });
  const tankId = await createTank(app, fbox, 1, { name: `${marker} tank` });
  const [minerId] = await createMiners(app, fbox, [
    { sn: `${marker}-SN`, worker: `${marker}.w1`, tank_id: tankId },
  ]);
  const restart = (
    await post(app, '/index/fbox.miner/restart', { area_id: area.id, ids: [minerId] }, { token: ownerToken })
  ).json();
  expect(restart.code).toBe(Code.OK);
  const caller = { id: owner.id, isMaster: true, parentId: null, role: 'master', area: null } as const;
  const link = await app.pools.createLink(caller, {
    area_id: area.id,
    pool: `${marker} pool`,
    subaccount: `${marker} sub`,
    coin: 'BTC',
    link: 'https://pool.example.com/observer',
  });
  const board = await app.boards.save(caller, {
    area_id: area.id,
    type: 'dataBoard',
    title: `${marker} board`,
    fbox_ids: [fbox.id],
    theme: 'dark',
    metric: 'status',
    page_seconds: 20,
  });
  const boardOf = (type: 'tankBoard' | 'minerBoardTest') =>
    app.boards.save(caller, {
      area_id: area.id,
      type,
      title: `${marker} ${type}`,
      fbox_ids: [],
      theme: 'dark',
      metric: 'status',
      page_seconds: 20,
    });
  const tankBoard = await boardOf('tankBoard');
  const testBoard = await boardOf('minerBoardTest');
  const logExport = await app.logExports.create(caller, {
    area_id: area.id,
    scope: 'fbox',
    ids: [fbox.id],
    from: app.clock() - 3_600_000,
    to: app.clock(),
  });
  const camera = await app.cameras.save(caller, {
    area_id: area.id,
    fbox_id: fbox.id,
    name: `${marker} camera`,
    stream: `live/${marker}-cam`,
  });
  const image = await app.db
    .insertInto('camera_images')
    .values({ camera_id: camera.id, taken_at: 1_000, bytes: 4, jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xd9]) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const poolSubaccount = await app.pools.saveSubaccount(caller, {
    area_id: area.id,
    pool: `${marker} pool`,
    subaccount: `${marker} sub`,
    coin: 'BTC',
  });
  const client = await app.db
    .insertInto('mqtt_clients')
    .values({
      area_id: area.id,
      kind: 'agent',
      client_key: `agent:${area.id}`,
      client_id: `${marker}-agent`,
      fbox_id: null,
      first_seen_at: 0,
      last_seen_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Automation: a group of each kind with the miner, a reboot and a temperature task, one run.
  const platform = async <T>(path: string, body: Record<string, unknown>): Promise<T> => {
    const answer = (await post(app, `/ff-plat-api/api/${path}`, body, { token: ownerToken })).json();
    expect(answer.code, `${path}: ${answer.msg}`).toBe(Code.OK);
    return answer.data as T;
  };
  const group = async (type: string) => {
    const made = await platform<{ id: number }>('minerGroup/add', {
      area_id: area.id,
      name: `${marker} ${type}`,
      type,
    });
    await platform('minerGroup/addMiner', { area_id: area.id, group_id: made.id, miner_ids: [minerId] });
    return made.id;
  };
  const groupId = await group('miner_reboot');
  const tempGroupId = await group('temp_mode');
  const window = { start_at: Date.now() + 86_400_000, end_at: Date.now() + 2 * 86_400_000 };
  const rebootTask = await platform<{ id: number }>('taskReboot/add', {
    area_id: area.id,
    kind: 'miner',
    name: `${marker} reboot`,
    hashrate_threshold: 50,
    duration_seconds: 600,
    reboot_interval_seconds: 1800,
    reboot_limit: 3,
    simultaneous_count: 5,
    batch_interval_seconds: 60,
    group_ids: [groupId],
    ...window,
  });
  const tempTask = await platform<{ id: number }>('taskTemp/add', {
    area_id: area.id,
    name: `${marker} temp`,
    group_ids: [tempGroupId],
    source: 'tank_oil_outlet',
    threshold: 60,
    duration_seconds: 300,
    ...window,
  });
  // Alarm center: an open and a closed alert on the box, named with the marker.
  const alertIds: number[] = [];
  for (const ended_at of [null, 2_000]) {
    const alert = await app.db
      .insertInto('alerts')
      .values({
        area_id: area.id,
        rule_id: 0,
        metric: 'fbox_temp_high',
        level: 2,
        device_kind: 'fbox',
        device_id: fbox.id,
        fbox_id: fbox.id,
        device_name: `${marker} alert box`,
        value: 50,
        peak_value: 50,
        detail: '',
        started_at: 1_000,
        ended_at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    alertIds.push(alert.id);
  }
  const message = await app.db
    .insertInto('messages')
    .values({
      user_id: userId,
      area_id: area.id,
      level: 2,
      kind: 'alert_fired',
      alert_id: alertIds[0]!,
      params: JSON.stringify({ metric: 'fbox_temp_high', target: 'fbox', device: `${marker} alert box` }),
      title: `${marker} message`,
      content: `${marker} message content`,
      created_at: 1_000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const run = await app.db
    .insertInto('task_runs')
    .values({ task_id: rebootTask.id, area_id: area.id, started_at: 0, finished_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    groupId,
    rebootTaskId: rebootTask.id,
    tempTaskId: tempTask.id,
    runId: run.id,
    alertId: alertIds[0]!,
    alertRuleId: (await app.alertRules.list(area.id))[0]!.id,
    messageId: message.id,
    mqttClientId: client.id,
    areaId: area.id,
    observerLinkId: link.id,
    poolSubaccountId: poolSubaccount.id,
    boardId: board.id,
    cameraId: camera.id,
    imageId: image.id,
    logExportId: logExport.id,
    tankBoardId: tankBoard.id,
    testBoardId: testBoard.id,
    fboxId: fbox.id,
    tankId,
    minerId: minerId!,
    commandId: restart.data.commands[0].command_id,
    batchId: restart.data.batch_id,
    userId,
  };
};

/** The object an id-like field of an endpoint names in a tenant; undefined when not taught. */
const refOf = (e: Endpoint, field: string, t: Tenant): number | string | undefined => {
  const kind =
    field === 'id' || field === 'ids' ? idRefs.find(([path]) => path.test(e.path))?.[1] : fieldRefs[field];
  return kind === undefined ? undefined : t[kind];
};

/**
 * Whether a successful answer holds nothing: an empty list or page, a batch whose every member is
 * `not_found`, nothing deleted, or a CSV with only its header.
 */
const matchesNothing = (answer: {
  body: string;
  json: { code?: number; data?: unknown } | null;
}): boolean => {
  if (answer.json === null) return answer.body.trim().split('\n').length <= 1;
  if (answer.json.code !== Code.OK) return false;
  const data = answer.json.data as Record<string, unknown> | unknown[] | null;
  if (Array.isArray(data)) return data.length === 0;
  if (data === null || typeof data !== 'object') return false;
  if (Array.isArray(data.items)) return data.items.length === 0;
  if (Array.isArray(data.commands))
    return data.commands.every((c) => (c as { status?: string }).status === 'not_found');
  return data.deleted === 0;
};

const asQuery = (input: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
  ) as Record<string, string>;

describeDb('isolation sweep: every endpoint refuses objects of another account or mine', () => {
  let t: TestApp;
  let names: string[];
  const callers: {
    role: string;
    token: string;
    own: Tenant;
    foreign: Tenant;
    /** Names the caller must never see in an answer. */
    hidden: string[];
  }[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    const a = await createMaster(t.app, { username: 'sweep_a' });
    const b = await createMaster(t.app, { username: 'ZZFOREIGN_b' });
    const aToken = await login(t.app, a);
    const bToken = await login(t.app, b);
    const a1 = await tenant(t.app, a, aToken, 'OWNA1', a.id);
    const a2 = await tenant(t.app, a, aToken, 'ZZHIDDEN', b.id);
    const foreign = await tenant(t.app, b, bToken, 'ZZFOREIGN', b.id);
    const admin = await createSubAccount(t.app, a, [a1.areaId], { authority: 'administrator' });
    const adminToken = await login(t.app, admin);
    callers.push(
      { role: 'master of A → account B', token: aToken, own: a1, foreign, hidden: ['ZZFOREIGN'] },
      {
        role: 'administrator of A1 → mine A2',
        token: adminToken,
        own: { ...a1, userId: admin.id },
        foreign: a2,
        hidden: ['ZZFOREIGN', 'ZZHIDDEN'],
      },
    );
    names = await tableNames(t.app);
    expect(names).toEqual(
      expect.arrayContaining(['users', 'areas', 'fboxes', 'tanks', 'miners', 'commands']),
    );
  });
  afterAll(() => t?.close());

  const call = async (e: Endpoint, input: Record<string, unknown>, token: string) => {
    const res =
      e.method === 'GET'
        ? await get(t.app, e.path, asQuery(input), { token })
        : await post(t.app, e.path, input, { token });
    return { body: res.body, json: String(res.headers['content-type']).includes('json') ? res.json() : null };
  };

  it('knows every endpoint that takes no id as an own-account endpoint, with a reason', () => {
    const idless = table.filter(([, e]) => idFieldsOf(schemaOf(e)).length === 0).map(([name]) => name);
    const unexplained = idless.filter((name) => !(name in ownAccount));
    expect(unexplained, 'endpoints without an id field: add each to ownAccount with why it is safe').toEqual(
      [],
    );
    const withIds = Object.keys(ownAccount).filter(
      (name) => name !== 'getUserInfo' && idFieldsOf(schemaOf(endpoints[name as EndpointName])).length > 0,
    );
    expect(withIds, 'own-account endpoints that now take an id must be swept').toEqual([]);
  });

  describe.each(table.filter(([name]) => !(name in ownAccount)))('%s', (name, e) => {
    it('answers "not found" or "refused", reveals nothing and changes nothing', async () => {
      const schema = schemaOf(e);
      const fields = idFieldsOf(schema);
      for (const caller of callers) {
        // All references foreign, then each one foreign with the others the caller's own.
        const variants: { label: string; foreignFields: string[] }[] = [
          { label: 'all foreign', foreignFields: fields },
          ...(fields.length > 1 ? fields.map((f) => ({ label: `${f} foreign`, foreignFields: [f] })) : []),
        ];
        for (const variant of variants) {
          let input: Record<string, unknown>;
          try {
            input = sample(schema!, {
              ref: (field) =>
                refOf(e, field, variant.foreignFields.includes(field) ? caller.foreign : caller.own),
            }) as Record<string, unknown>;
          } catch (error) {
            if (error instanceof UnknownReference) {
              throw new Error(
                `${name}: the sweep does not know which object "${error.field}" names — add it to fieldRefs ` +
                  `(or, for id/ids, the endpoint's path to idRefs) in isolation-sweep.test.ts`,
              );
            }
            throw error;
          }
          const where = `${name} as ${caller.role}, ${variant.label}: ${JSON.stringify(input)}`;
          const before = await snapshot(t.app, names);
          const answer = await call(e, input, caller.token);
          const after = await snapshot(t.app, names);
          const code = answer.json?.code;
          if (code === Code.VALIDATION) {
            const [first] = answer.json.data?.errors ?? [];
            throw new Error(
              `${where}\n  the generated input failed validation on "${first?.field}" (${first?.rule}) before the ` +
                `scope check: teach src/test/schema-sample.ts a valid sample for "${first?.field}"`,
            );
          }
          const refused = code === Code.NOT_FOUND || code === Code.FORBIDDEN;
          // Inside the caller's own mine, a foreign device id in a list filter or a batch matches
          // nothing: an empty answer (or per-device `not_found`) is as safe as a refusal.
          const inOwnMine = !variant.foreignFields.includes('area_id') && variant.label !== 'all foreign';
          expect(
            refused || (inOwnMine && matchesNothing(answer)),
            `${where}\n  answered ${answer.body.slice(0, 300)}`,
          ).toBe(true);
          for (const hidden of caller.hidden)
            expect(answer.body, `${where} reveals ${hidden}`).not.toContain(hidden);
          expect(changedTables(before, after), `${where} changed rows`).toEqual([]);
          // Sanity: an id-like field was really in the input.
          expect(Object.keys(input).some(isIdField)).toBe(true);
        }
      }
    });
  });

  describe.each(table.filter(([name, e]) => name in ownAccount && e.method === 'GET' && !e.download))(
    '%s (own account)',
    (name, e) => {
      it('answers only about the caller and reveals no foreign name', async () => {
        for (const caller of callers) {
          const schema = schemaOf(e);
          const input = schema
            ? (sample(schema, {
                ref: (field) => refOf(e, field, caller.foreign) ?? caller.foreign.userId,
              }) as Record<string, unknown>)
            : {};
          const answer = await call(e, input, caller.token);
          // OK, or refused by the endpoint's permission (ingestStats is for masters).
          expect([Code.OK, Code.FORBIDDEN], `${name} as ${caller.role}`).toContain(answer.json?.code);
          for (const hidden of caller.hidden)
            expect(answer.body, `${name} reveals ${hidden}`).not.toContain(hidden);
        }
      });
    },
  );
});
