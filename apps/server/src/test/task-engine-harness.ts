import { inflateRawSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestClock } from './build-test-app.js';
import { createMiners, createFbox as createTestFbox } from './device-factories.js';
import { createArea, createFbox, createMaster, login, post } from './factories.js';

/** Test helpers for the task engine: drive it through time and play a gateway that acknowledges. */

/** Acknowledges every open command as a gateway would (through the command service's ack path). */
export const ackAll = async (app: FastifyInstance, ok = true): Promise<number> => {
  const open = await app.db
    .selectFrom('commands')
    .innerJoin('fboxes', 'fboxes.id', 'commands.fbox_id')
    .select(['commands.id', 'fboxes.device_id'])
    .where('commands.status', 'in', ['pending', 'sent'])
    .execute();
  for (const c of open) {
    await app.commands.handleAck(
      c.device_id,
      Buffer.from(JSON.stringify(ok ? { id: c.id, ok: true } : { id: c.id, ok: false, error: 'refused' })),
    );
  }
  return open.length;
};

/**
 * Moves the clock from due time to due time (each task's `next_eval_at`) up to `until`, ticking the
 * engines of every app given and acknowledging commands after each tick when `ack` is set.
 */
export const runUntil = async (
  apps: FastifyInstance[],
  clock: TestClock,
  until: number,
  options: { ack?: boolean } = {},
): Promise<void> => {
  const [app] = apps;
  for (let guard = 0; guard < 100_000; guard++) {
    const row = await app!.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.min<number>('next_eval_at').as('next'))
      .where('next_eval_at', 'is not', null)
      .executeTakeFirst();
    const next = row?.next == null ? null : Number(row.next);
    if (next === null || next > until) {
      clock.ms = Math.max(clock.ms, until);
      await Promise.all(apps.map((a) => a.taskEngine.tick()));
      if (options.ack ?? true) await ackAll(app!);
      return;
    }
    clock.ms = Math.max(clock.ms, next);
    await Promise.all(apps.map((a) => a.taskEngine.tick()));
    if (options.ack ?? true) await ackAll(app!);
    // Invariant: a running task is looked at again within 30 s (spec: at least every 30 s).
    const late = await app!.db
      .selectFrom('tasks')
      .select(['id', 'next_eval_at'])
      .where('state', '=', 'active')
      .where('start_at', '<=', clock.ms)
      .where('end_at', '>', clock.ms)
      .where((eb) => eb.or([eb('next_eval_at', 'is', null), eb('next_eval_at', '>', clock.ms + 30_000)]))
      .execute();
    if (late.length > 0) throw new Error(`running task not scheduled within 30 s: ${JSON.stringify(late)}`);
  }
  throw new Error('runUntil did not reach its time');
};

export const items = (app: FastifyInstance, taskId?: number) =>
  app.db
    .selectFrom('task_items')
    .selectAll()
    .$if(taskId !== undefined, (q) => q.where('task_id', '=', taskId!))
    .orderBy('id')
    .execute();

export const api = async (
  app: FastifyInstance,
  token: string,
  path: string,
  body: Record<string, unknown>,
) => {
  const res = (await post(app, `/ff-plat-api/api/${path}`, body, { token })).json();
  if (res.code !== 1) throw new Error(`${path} failed: ${JSON.stringify(res)}`);
  return res.data;
};

/** A miner group of a type holding the miners, made through the API; its id. */
export const addGroup = async (
  app: FastifyInstance,
  token: string,
  areaId: number,
  group: { name: string; type: string },
  minerIds: number[],
): Promise<number> => {
  const g = await api(app, token, 'minerGroup/add', { area_id: areaId, ...group });
  await api(app, token, 'minerGroup/addMiner', { area_id: areaId, group_id: g.id, miner_ids: minerIds });
  return g.id as number;
};

/** A fresh app with a signed-in master, a mine and one FBOX in it: where engine tests start. */
export const engineWorld = async () => {
  const t = await buildTestApp();
  const master = await createMaster(t.app);
  const token = await login(t.app, master);
  const areaId = (await createArea(t.app, master.id)).id;
  const box = await createTestFbox(t.app, areaId, { name: 'Box 1' });
  return { t, master, token, areaId, box };
};

/** Files of a ZIP archive (stored or deflated), read from its central directory. */
export const unzip = (archive: Buffer): Map<string, Buffer> => {
  const files = new Map<string, Buffer>();
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const count = archive.readUInt16LE(end + 10);
  let p = archive.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const method = archive.readUInt16LE(p + 10);
    const size = archive.readUInt32LE(p + 20);
    const nameLength = archive.readUInt16LE(p + 28);
    const extra = archive.readUInt16LE(p + 30);
    const comment = archive.readUInt16LE(p + 32);
    const offset = archive.readUInt32LE(p + 42);
    const name = archive.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    const localStart = offset + 30 + archive.readUInt16LE(offset + 26) + archive.readUInt16LE(offset + 28);
    const data = archive.subarray(localStart, localStart + size);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    p += 46 + nameLength + extra + comment;
  }
  return files;
};

/** Rows of an XLSX sheet written with inline strings (as ours are): text and numbers per row. */
export const sheetRows = (xml: string): (string | number)[][] =>
  [...xml.matchAll(/<row [^>]*>(.*?)<\/row>/g)].map((row) =>
    [
      ...row[1]!.matchAll(
        /<c r="[A-Z]+\d+"( t="inlineStr")?>(?:<v>([^<]*)<\/v>|<is><t[^>]*>([^<]*)<\/t><\/is>)<\/c>/g,
      ),
    ].map((c) =>
      c[1]
        ? c[3]!
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&quot;/g, '"')
            .replace(/&amp;/g, '&')
        : Number(c[2]),
    ),
  );

/**
 * The database as an operator left it for the process tests (crash, two processes): a PDU task over
 * `minerCount` offline miners on outlets 1…n, two per batch, due now, the miners already offline
 * for a minute (so the duration does not make the test wait).
 */
export const seedPduTask = async (
  app: FastifyInstance,
  options: { name: string; snPrefix: string; minerCount: number },
) => {
  const master = await createMaster(app);
  const token = await login(app, master);
  const areaId = (await createArea(app, master.id)).id;
  const fbox = await createFbox(app, areaId, { tanks: 0 });
  const minerIds = await createMiners(
    app,
    { id: fbox.id, areaId, deviceId: fbox.device_id },
    Array.from({ length: options.minerCount }, (_, i) => ({
      sn: `${options.snPrefix}-${i}`,
      online: 0,
      outlet: i + 1,
    })),
  );
  const group = await api(app, token, 'minerGroup/add', { area_id: areaId, name: 'All', type: 'pdu_reboot' });
  await api(app, token, 'minerGroup/addMiner', { area_id: areaId, group_id: group.id, miner_ids: minerIds });
  const now = Date.now();
  const task = await api(app, token, 'taskReboot/add', {
    area_id: areaId,
    kind: 'pdu',
    name: options.name,
    hashrate_threshold: 50,
    duration_seconds: 30,
    reboot_interval_seconds: 1800,
    reboot_limit: 1,
    start_at: now - 60_000,
    end_at: now + 3_600_000,
    simultaneous_count: 2,
    batch_interval_seconds: 1,
    power_off_seconds: 2,
    group_ids: [group.id],
  });
  await app.db
    .insertInto('task_miner_state')
    .values(
      minerIds.map((miner_id) => ({ task_id: task.id, miner_id, since_at: now - 60_000, action_count: 0 })),
    )
    .execute();
  return { areaId, fbox, minerIds, task: task as { id: number } };
};
