import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { bulkInsert } from '../db/bulk.js';
import { minerInfoColumns, minerReadingColumns, minerSampleColumns } from '../devices/telemetry-rows.js';

/**
 * `npm run seed:bench -- --miners 100000 [--per-box 500] [--samples 6]`: an area with that many
 * miners across immersion FBOXes (4 tanks each) with latest state and a few history samples, in
 * DATABASE_URL or DATA_DIR. Rows go in as multi-row inserts, so 100,000 miners take seconds.
 */
const { values } = parseArgs({
  options: {
    miners: { type: 'string', default: '100000' },
    'per-box': { type: 'string', default: '500' },
    samples: { type: 'string', default: '6' },
  },
});
const total = Number(values.miners);
const perBox = Number(values['per-box']);
const samplesPerMiner = Number(values.samples);

const started = Date.now();
const config = {
  ...loadConfig(),
  demo: false,
  logLevel: 'warn',
  adminPassword: process.env.ADMIN_PASSWORD ?? 'bench-password',
};
const app = await buildApp({ config, seed: true, logger: { level: 'warn' } });
const owner = await app.db
  .selectFrom('users')
  .select('id')
  .where('is_master', '=', 1)
  .orderBy('id')
  .executeTakeFirstOrThrow();
const area = await app.areas.create(owner.id, { area_name: `Bench ${total} ${Date.now() % 100000}` });
const models = [
  ['S19 Pro', 'Antminer', 110, 3250],
  ['S21', 'Antminer', 200, 3500],
  ['M50S', 'Whatsminer', 126, 3276],
  ['A1366', 'Avalon', 130, 3250],
] as const;
const pools = ['ViaBTC', 'F2Pool', 'AntPool', 'Foundry'];
const now = Date.now();

let made = 0;
for (let box = 1; made < total; box++) {
  const count = Math.min(perBox, total - made);
  const fbox = await app.devices.createFbox(area.id, {
    name: `Bench ${box}`,
    number: `B${box}`,
    kind: 'immersion',
    tanks: 4,
  });
  const tanks = await app.db
    .selectFrom('tanks')
    .select(['id', 'no'])
    .where('fbox_id', '=', fbox.id)
    .orderBy('no')
    .execute();
  const sns = Array.from(
    { length: count },
    (_, i) => `BN${box.toString().padStart(4, '0')}${i.toString().padStart(5, '0')}`,
  );
  await bulkInsert(
    app.db,
    app.dbDialect,
    'miners',
    ['area_id', 'fbox_id', 'tank_id', 'sn', 'created_at'],
    sns.map((sn, i) => [area.id, fbox.id, tanks[i % tanks.length]!.id, sn, now]),
  );
  const miners = await app.db
    .selectFrom('miners')
    .select(['id', 'sn', 'tank_id'])
    .where('fbox_id', '=', fbox.id)
    .execute();
  const info: unknown[][] = [];
  const readings: unknown[][] = [];
  const samples: unknown[][] = [];
  for (const [i, m] of miners.entries()) {
    const [model, brand, th, watts] = models[i % models.length]!;
    const online = i % 50 !== 0;
    const hashrate = online ? th * (0.9 + ((i * 7919) % 200) / 1000) : 0;
    info.push([
      m.id,
      area.id,
      fbox.id,
      m.tank_id,
      m.sn,
      `bench.${box}x${i}`,
      model,
      brand,
      pools[i % pools.length],
      'stratum+tcp://pool:3333',
      `10.${box % 250}.${Math.floor(i / 250)}.${i % 250}`,
      '2024.1',
      i + 1,
      online ? 1 : 0,
      i % 3 === 0 ? 'low' : 'high',
      i % 97 === 0 ? 'fan' : '',
      th,
      hashrate,
    ]);
    readings.push([
      m.id,
      60 + (i % 10),
      70 + (i % 12),
      hashrate,
      hashrate,
      online ? watts : 0,
      3600 * (i % 200),
      now,
    ]);
    for (let s = 0; s < samplesPerMiner; s++) {
      samples.push([
        m.id,
        now - (samplesPerMiner - s) * 600_000,
        hashrate,
        online ? watts : 0,
        70,
        online ? 1 : 0,
      ]);
    }
  }
  await app.db.transaction().execute(async (trx) => {
    await bulkInsert(trx, app.dbDialect, 'miner_info', minerInfoColumns, info);
    await bulkInsert(trx, app.dbDialect, 'miner_readings', minerReadingColumns, readings);
    await bulkInsert(trx, app.dbDialect, 'miner_samples', minerSampleColumns, samples);
  });
  made += count;
}
await app.close();
console.log(
  JSON.stringify({ area: area.area_name, area_id: area.id, miners: made, ms: Date.now() - started }),
);
