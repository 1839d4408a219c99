// The bench's mine: one area of FBOXes with 4 tanks each and `perBox` miners per box, with each
// miner's latest state (models, pools, faults and hashrates spread by a fixed pseudo-random series).
import { sql } from 'kysely';
import { updateStatistics } from '../../apps/server/dist/db/database.js';
import { minerReadingColumns } from '../../apps/server/dist/devices/telemetry-rows.js';

/** Seeds the area (owned by `username`) and answers it with its boxes; planner statistics updated. */
export const seedMinerArea = async (app, { username, minersTotal, perBox }) => {
  const owner = await app.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  const area = await app.areas.create(owner.id, { area_name: `Bench ${Date.now()}` });
  const models = [
    ['S19 Pro', 'Antminer', 110, 3250],
    ['S21', 'Antminer', 200, 3500],
    ['M50S', 'Whatsminer', 126, 3276],
    ['A1366', 'Avalon', 130, 3250],
  ];
  const pools = ['ViaBTC', 'F2Pool', 'AntPool', 'Foundry'];
  const faults = ['', '', '', '', '', '', 'fan', 'chain', 'temp_high'];
  const now = Date.now();
  let rand = 42;
  const random = () => {
    rand = (rand * 1_103_515_245 + 12_345) % 2_147_483_648;
    return rand / 2_147_483_648;
  };
  const insertChunks = async (table, rows, size) => {
    for (let i = 0; i < rows.length; i += size)
      await app.db
        .insertInto(table)
        .values(rows.slice(i, i + size))
        .execute();
  };
  const boxes = [];
  for (let box = 1, made = 0; made < minersTotal; box++) {
    const count = Math.min(perBox, minersTotal - made);
    const fbox = await app.devices.createFbox(area.id, { name: `Bench ${box}`, kind: 'immersion', tanks: 4 });
    boxes.push(fbox);
    const tanks = await app.db
      .selectFrom('tanks')
      .select('id')
      .where('fbox_id', '=', fbox.id)
      .orderBy('no')
      .execute();
    const identities = Array.from({ length: count }, (_, i) => ({
      area_id: area.id,
      fbox_id: fbox.id,
      tank_id: tanks[i % 4].id,
      sn: `BN${String(box).padStart(4, '0')}${String(i).padStart(5, '0')}`,
      created_at: now,
    }));
    await insertChunks('miners', identities, 1000);
    const miners = await app.db
      .selectFrom('miners')
      .select(['id', 'sn', 'tank_id'])
      .where('fbox_id', '=', fbox.id)
      .execute();
    const states = miners.map((m, i) => {
      const [model, brand, theoretical, power] = models[Math.floor(random() * models.length)];
      const online = random() < 0.93 ? 1 : 0;
      return {
        miner_id: m.id,
        area_id: area.id,
        fbox_id: fbox.id,
        tank_id: m.tank_id,
        sn: m.sn,
        worker: `mine.${box}x${i}`,
        model,
        brand,
        pool: pools[Math.floor(random() * pools.length)],
        pool_address: 'stratum+tcp://btc.viabtc.io:3333',
        ip: `10.${box % 256}.${i >> 8}.${i & 255}`,
        firmware: '2024.1',
        outlet: i + 1,
        online,
        mode: random() < 0.8 ? 'high' : 'low',
        fault: online ? faults[Math.floor(random() * faults.length)] : '',
        chip_avg_temp: online ? 55 + Math.round(random() * 150) / 10 : -999,
        chip_max_temp: online ? 65 + Math.round(random() * 200) / 10 : -999,
        hashrate_theoretical: theoretical,
        hashrate_realtime: online ? Math.round(theoretical * (0.85 + random() * 0.2) * 100) / 100 : 0,
        hashrate_avg: online ? theoretical * 0.97 : 0,
        hashrate_24h: theoretical * 0.96,
        power_w: online ? power : 0,
        uptime_s: online ? Math.floor(random() * 3_000_000) : 0,
        updated_at: now,
      };
    });
    // A miner's state is two rows (migration 0042): its readings, and the rest.
    const split = (state, reading) =>
      Object.fromEntries(
        Object.entries(state).filter(
          ([column]) => column === 'miner_id' || minerReadingColumns.includes(column) === reading,
        ),
      );
    await insertChunks(
      'miner_info',
      states.map((state) => split(state, false)),
      500,
    );
    await insertChunks(
      'miner_readings',
      states.map((state) => split(state, true)),
      500,
    );
    made += count;
  }
  // The planner statistics a running server has: PostgreSQL's autovacuum would vacuum and analyze
  // the fresh tables within a minute (done here, so it does not start in the middle of the
  // measurement), the server's `db-statistics` job does it on SQLite (at start and hourly).
  if (app.dbDialect === 'postgres') {
    await sql`vacuum analyze miners, miner_info, miner_readings, fboxes, fbox_state, tanks, tank_state, areas, users`.execute(
      app.db,
    );
    // The seed's writes flushed now, not by the checkpointer during the first measurement.
    await sql`checkpoint`.execute(app.db);
  } else await updateStatistics(app.db, app.dbDialect);
  return { area, boxes };
};
