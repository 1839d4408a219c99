import { Code, topics } from '@fbox/contracts';
import { startSimulator } from '@fbox/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer, type ZipFile } from 'yauzl';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createFbox,
  createMaster,
  createMiner,
  createSubAccount,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';
import { brokerUrl, waitFor } from '../../test/mqtt-client.js';
import { LogExportEngine } from './log-export.engine.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

const LOG = '/ff-plat-api/api/admin/log/export';
const hour = 3_600_000;

/** The files of a zip, by path, as text. */
const unzip = (buffer: Buffer): Promise<Map<string, string>> =>
  new Promise((resolve, reject) => {
    fromBuffer(buffer, { lazyEntries: true }, (error, zip?: ZipFile) => {
      if (error || !zip) return reject(error);
      const files = new Map<string, string>();
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });

/**
 * Miner log export end to end: the export job asks the simulated gateways over a real broker for
 * each miner's log (`miner.logs`), the parts arrive on `fbox/<id>/logs`, and the zip holds a file
 * per miner; a powered-off miner fails with the gateway's reason, a gateway that never answers
 * times out, an offline FBOX fails at once; cancel, delete, expiry, scope and bad input.
 */
describeDb('miner log export', () => {
  let t: TestApp;
  let simulator: Simulator;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let live: CreatedFbox;
  let mute: CreatedFbox;
  let dark: CreatedFbox;

  const engineRun = async (engine = t.app.logExportEngine) => {
    await t.app.ingest.flush();
    await engine.run();
  };
  const call = async (path: string, body: Record<string, unknown>, tk = token) =>
    (await post(t.app, `${LOG}${path}`, { area_id: areaId, ...body }, { token: tk })).json();
  const exportOf = async (id: number) =>
    ((await call('/list', { limit: 100 })).data.items as { id: number }[]).find((e) => e.id === id) as
      | Record<string, unknown>
      | undefined;
  /** Runs the job until the export has no miner waiting, moving time on by `stepMs` each round. */
  const runUntilSettled = async (id: number, stepMs = 0, engine?: LogExportEngine) => {
    await waitFor(async () => {
      t.clock.advance(stepMs);
      await t.app.commands.expire();
      await engineRun(engine);
      return (await exportOf(id))?.status !== 'processing';
    }, 20_000);
  };

  beforeAll(async () => {
    t = await buildTestApp({ mqtt: 'embedded' });
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    live = await createFbox(t.app, areaId, { name: 'Live box', tanks: 2 });
    mute = await createFbox(t.app, areaId, { name: 'Mute box', tanks: 0 });
    dark = await createFbox(t.app, areaId, { name: 'Dark box', tanks: 0 });
    await createMiner(t.app, dark, { sn: 'DARK-1' });
    simulator = await startSimulator({
      brokerUrl: brokerUrl(t.app),
      clock: t.clock,
      intervalMs: 60_000,
      reportAfterCommandMs: 100,
      restartMs: 60_000,
      gateways: [
        {
          deviceId: live.device_id,
          username: live.mqtt_username,
          password: live.mqtt_password,
          tanks: 2,
          minersPerTank: 3,
        },
        {
          deviceId: mute.device_id,
          username: mute.mqtt_username,
          password: mute.mqtt_password,
          tanks: 0,
          minersPerTank: 2,
          ignoreCommands: true,
        },
      ],
    });
    await waitFor(async () => {
      await t.app.ingest.flush();
      const n = await t.app.db
        .selectFrom('miner_state')
        .select('miner_id')
        .where('area_id', '=', areaId)
        .execute();
      return n.length === 6 + 2 + 1;
    });
  });

  afterAll(async () => {
    await simulator?.stop();
    await t?.close();
  });

  const minersOf = (fboxId: number) =>
    t.app.db
      .selectFrom('miner_state')
      .select(['miner_id', 'sn', 'outlet'])
      .where('fbox_id', '=', fboxId)
      .orderBy('sn')
      .execute();

  it('fetches every miner log over MQTT into one zip, with each failure and its reason', async () => {
    const [restarted, unpowered] = await minersOf(live.id);
    // One miner restarts (its log shows the reboot and the boot), one loses power (it cannot answer).
    const restart = await t.app.commands.issue({
      areaId,
      fboxId: live.id,
      kind: 'miner.restart',
      target: { sn: restarted!.sn },
      params: {},
      userId: null,
    });
    const off = await t.app.commands.issue({
      areaId,
      fboxId: live.id,
      kind: 'pdu.outlet',
      target: { outlet: unpowered!.outlet! },
      params: { status: 'off' },
      userId: null,
    });
    await waitFor(async () =>
      (await t.app.commands.get([restart.id, off.id], [areaId])).every((c) => c.status === 'acknowledged'),
    );
    const unpoweredSns = (await minersOf(live.id))
      .filter((m) => m.outlet === unpowered!.outlet)
      .map((m) => m.sn);
    t.clock.advance(2 * 60_000); // the restarted miner is up again

    const started = await call('', {
      scope: 'fbox',
      ids: [live.id, mute.id, dark.id],
      from: t.clock.ms - 2 * hour,
      to: t.clock.ms,
    });
    expect(started.code).toBe(Code.OK);
    expect(started.data).toMatchObject({ status: 'processing', total: 9, done: 0, failed: 0 });
    expect(started.data.scope_label).toBe('Dark box, Live box, Mute box');
    const id = started.data.id as number;

    // A processing export cannot be downloaded yet.
    const early = await get(t.app, `${LOG}/download`, { area_id: String(areaId), id: String(id) }, { token });
    expect(early.json().code).toBe(Code.CONFLICT);

    // The first round: the offline FBOX's miner fails at once; at most 4 requests per gateway.
    await engineRun();
    const states = await t.app.db
      .selectFrom('log_export_miners')
      .select(['fbox_id', 'state'])
      .where('export_id', '=', id)
      .execute();
    const requestedOf = (fboxId: number) =>
      states.filter((s) => s.fbox_id === fboxId && s.state === 'requested').length;
    expect(requestedOf(live.id)).toBeLessThanOrEqual(4);
    expect(requestedOf(live.id)).toBeGreaterThan(0);
    expect(requestedOf(mute.id)).toBe(2);
    expect(states.find((s) => s.fbox_id === dark.id)?.state).toBe('failed');

    // Another engine (as another process after a restart) carries the job on from the database;
    // the gateway that never answers times out after 60 s.
    const other = new LogExportEngine(t.app);
    const openOf = async (fboxId: number) =>
      (
        await t.app.db
          .selectFrom('log_export_miners')
          .select('state')
          .where('export_id', '=', id)
          .where('fbox_id', '=', fboxId)
          .where('state', 'in', ['queued', 'requested'])
          .execute()
      ).length;
    await waitFor(async () => {
      await engineRun(other);
      return (await openOf(live.id)) === 0;
    }, 10_000);
    expect(await openOf(mute.id)).toBe(2); // the mute gateway's two still wait
    expect((await exportOf(id))?.status).toBe('processing');
    await runUntilSettled(id, 61_000, other);

    const finished = await exportOf(id);
    expect(finished).toMatchObject({
      status: 'finished',
      total: 9,
      done: 6 - unpoweredSns.length,
      failed: 3 + unpoweredSns.length,
    });
    expect(finished!.bytes as number).toBeGreaterThan(0);

    // Each failure with its reason, in the caller's language.
    const failed = await call('/items', { id, state: 'failed', limit: 50 });
    const reasons = new Map(
      (failed.data.items as { sn: string; error: string }[]).map((i) => [i.sn, i.error]),
    );
    expect(reasons.get('DARK-1')).toBe('FBOX offline');
    for (const sn of unpoweredSns) expect(reasons.get(sn)).toMatch(/unreachable/);
    const muteSns = (await minersOf(mute.id)).map((m) => m.sn);
    for (const sn of muteSns) expect(reasons.get(sn)).toBe('no answer from the gateway in time');
    const zh = (
      await post(
        t.app,
        `${LOG}/items`,
        { area_id: areaId, id, state: 'failed' },
        { token, headers: { lang: 'zh-cn' } },
      )
    ).json();
    expect((zh.data.items as { sn: string; error: string }[]).find((i) => i.sn === 'DARK-1')?.error).toBe(
      'FBOX 离线',
    );

    // The zip: a summary and a log per miner that answered; the restarted miner's shows its reboot.
    const res = await get(t.app, `${LOG}/download`, { area_id: String(areaId), id: String(id) }, { token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = await unzip(res.rawPayload);
    const logs = [...files.keys()].filter((f) => f.endsWith('.log')).sort();
    expect(logs).toHaveLength(6 - unpoweredSns.length);
    expect(logs.every((f) => f.startsWith('Live box/'))).toBe(true);
    const restartedLog = files.get(`Live box/${restarted!.sn}.log`)!;
    expect(restartedLog).toMatch(/system: reboot requested/);
    expect(restartedLog).toMatch(/kernel: Booting Linux/);
    expect(restartedLog).toMatch(/cgminer: GHS 5s=/);
    const summary = files.get('export.txt')!;
    expect(summary).toContain('Miners: 9');
    expect(summary).toMatch(/DARK-1\tfailed\t0\tFBOX offline/);
  });

  it('cancels a running export: nothing more is asked and late answers are dropped', async () => {
    const started = await call('', {
      scope: 'fbox',
      ids: [mute.id],
      from: t.clock.ms - hour,
      to: t.clock.ms,
    });
    const id = started.data.id as number;
    await engineRun();
    const canceled = await call('/cancel', { id });
    expect(canceled.code).toBe(Code.OK);
    expect(canceled.data.status).toBe('canceled');
    const items = await call('/items', { id });
    expect((items.data.items as { state: string }[]).every((i) => i.state === 'canceled')).toBe(true);

    // A part that arrives now for a canceled request is not stored.
    const [row] = await t.app.db
      .selectFrom('log_export_miners')
      .select('command_id')
      .where('export_id', '=', id)
      .where('command_id', 'is not', null)
      .execute();
    const part = { id: row!.command_id, part: 0, last: true, data: 'late\n' };
    await t.app.ingest.handle(topics.logs(mute.device_id), Buffer.from(JSON.stringify(part)));
    const parts = await t.app.db
      .selectFrom('log_export_parts')
      .select('command_id')
      .where('command_id', '=', row!.command_id!)
      .execute();
    expect(parts).toHaveLength(0);

    expect((await call('/cancel', { id })).code).toBe(Code.CONFLICT);
    // A canceled export downloads what it has (here: only the summary).
    const res = await get(t.app, `${LOG}/download`, { area_id: String(areaId), id: String(id) }, { token });
    expect([...(await unzip(res.rawPayload)).keys()]).toEqual(['export.txt']);
  });

  it('deletes an export with its logs, and expires old ones by themselves', async () => {
    const started = await call('', {
      scope: 'miners',
      ids: [(await minersOf(live.id)).at(-1)!.miner_id],
      from: t.clock.ms - hour,
      to: t.clock.ms,
    });
    const id = started.data.id as number;
    await runUntilSettled(id);
    expect((await exportOf(id))?.done).toBe(1);
    const commandIds = async (exportId: number) =>
      (
        await t.app.db
          .selectFrom('log_export_miners')
          .select('command_id')
          .where('export_id', '=', exportId)
          .execute()
      ).map((r) => r.command_id!);
    const [commandId] = await commandIds(id);
    expect(
      await t.app.db
        .selectFrom('log_export_parts')
        .select('part')
        .where('command_id', '=', commandId!)
        .execute(),
    ).not.toHaveLength(0);

    expect((await call('/delete', { id })).code).toBe(Code.OK);
    expect(await exportOf(id)).toBeUndefined();
    expect(
      await t.app.db
        .selectFrom('log_export_parts')
        .select('part')
        .where('command_id', '=', commandId!)
        .execute(),
    ).toHaveLength(0);
    expect((await call('/delete', { id })).code).toBe(Code.NOT_FOUND);

    // Every export of the mine is gone 7 days (the default retention) after it was made.
    expect(((await call('/list', {})).data.total as number) > 0).toBe(true);
    t.clock.advance(7 * 24 * hour + 1);
    await engineRun();
    token = await login(t.app, master); // the session expired meanwhile
    expect((await call('/list', {})).data.total).toBe(0);
  });

  describe('refusals', () => {
    it('refuses bad windows and picks on their fields, and changes nothing', async () => {
      const before = (await call('/list', {})).data.total;
      const now = t.clock.ms;
      const fieldOf = (body: { code: number; data: { errors: { field: string; rule: string }[] } }) => [
        body.code,
        body.data.errors[0]?.field,
      ];
      expect(
        fieldOf(await call('', { scope: 'fbox', ids: [live.id], from: now - 8 * 24 * hour, to: now })),
      ).toEqual([Code.VALIDATION, 'to']);
      expect(fieldOf(await call('', { scope: 'fbox', ids: [live.id], from: now, to: now - 1 }))).toEqual([
        Code.VALIDATION,
        'to',
      ]);
      expect(
        fieldOf(
          await call('', {
            scope: 'fbox',
            ids: [live.id],
            from: now - 31 * 24 * hour,
            to: now - 30 * 24 * hour,
          }),
        ),
      ).toEqual([Code.VALIDATION, 'from']);
      expect(fieldOf(await call('', { scope: 'fbox', from: now - hour, to: now }))).toEqual([
        Code.VALIDATION,
        'ids',
      ]);
      expect(
        fieldOf(
          await call('', { scope: 'filter', filter: { model: 'No such model' }, from: now - hour, to: now }),
        ),
      ).toEqual([Code.VALIDATION, 'filter']);
      expect((await call('/list', {})).data.total).toBe(before);
    });

    it('lets an operator without Miner control follow exports but not start, cancel or delete one', async () => {
      const operator = await createSubAccount(t.app, master, [areaId], { rules: ['tankControl'] });
      const opToken = await login(t.app, operator);
      const now = t.clock.ms;
      const started = await call('', { scope: 'fbox', ids: [dark.id], from: now - hour, to: now });
      const id = started.data.id as number;
      expect(
        (await call('', { scope: 'fbox', ids: [dark.id], from: now - hour, to: now }, opToken)).code,
      ).toBe(Code.FORBIDDEN);
      expect((await call('/cancel', { id }, opToken)).code).toBe(Code.FORBIDDEN);
      expect((await call('/delete', { id }, opToken)).code).toBe(Code.FORBIDDEN);
      expect((await call('/items', { id }, opToken)).code).toBe(Code.OK);
      expect(
        ((await call('/list', {}, opToken)).data.items as { id: number }[]).some((e) => e.id === id),
      ).toBe(true);
    });

    it('answers "not found" for another mine’s FBOX or export, and keeps each mine to its own', async () => {
      const stranger = await createMaster(t.app);
      const strangerToken = await login(t.app, stranger);
      const strangerArea = (await createArea(t.app, stranger.id)).id;
      const foreignBox = await createFbox(t.app, strangerArea, { name: 'Foreign' });
      const now = t.clock.ms;
      expect((await call('', { scope: 'fbox', ids: [foreignBox.id], from: now - hour, to: now })).code).toBe(
        Code.NOT_FOUND,
      );
      const mine = await call('', { scope: 'fbox', ids: [dark.id], from: now - hour, to: now });
      const id = mine.data.id as number;
      // The stranger names our mine: refused; names its own mine with our export id: not found.
      expect((await call('/list', {}, strangerToken)).code).not.toBe(Code.OK);
      const theirs = await post(
        t.app,
        `${LOG}/items`,
        { area_id: strangerArea, id },
        { token: strangerToken },
      );
      expect(theirs.json().code).toBe(Code.NOT_FOUND);
      const download = await get(
        t.app,
        `${LOG}/download`,
        { area_id: String(strangerArea), id: String(id) },
        { token: strangerToken },
      );
      expect(download.json().code).toBe(Code.NOT_FOUND);
      expect(
        (await post(t.app, `${LOG}/delete`, { area_id: strangerArea, id }, { token: strangerToken })).json()
          .code,
      ).toBe(Code.NOT_FOUND);
      expect(await exportOf(id)).toBeDefined();
    });
  });
});
