import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';

/**
 * SQLite: a trigram index of each miner's worker, IP and SN (`miner_search`, an FTS5 table whose
 * content is `miner_state`), so the list's keyword (a substring of any of the three) finds its
 * miners without reading the whole mine. Looking one miner up by its SN read every row of a
 * 1,000,000-miner mine, page and count: 3.3 s at 8 requests at once, 0.45 s of the event loop each
 * (docs/performance.md, "The list at 1,000,000 miners on both databases").
 *
 * Triggers keep it: a new miner, a deleted one, and an update that changes one of the three. A
 * sample's readings upsert sets none of them, so telemetry writes nothing here; the settings upsert
 * names them, and the trigger's condition skips rows whose three values stayed.
 */
export const minerSearchMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'sqlite') return;
    await sql`create virtual table miner_search using fts5(worker, ip, sn, tokenize = 'trigram',
      content = 'miner_state', content_rowid = 'miner_id')`.execute(db);
    await sql`create trigger miner_search_insert after insert on miner_state begin
      insert into miner_search (rowid, worker, ip, sn) values (new.miner_id, new.worker, new.ip, new.sn);
    end`.execute(db);
    await sql`create trigger miner_search_delete after delete on miner_state begin
      insert into miner_search (miner_search, rowid, worker, ip, sn)
        values ('delete', old.miner_id, old.worker, old.ip, old.sn);
    end`.execute(db);
    await sql`create trigger miner_search_update after update of worker, ip, sn on miner_state
      when old.worker is not new.worker or old.ip is not new.ip or old.sn is not new.sn begin
      insert into miner_search (miner_search, rowid, worker, ip, sn)
        values ('delete', old.miner_id, old.worker, old.ip, old.sn);
      insert into miner_search (rowid, worker, ip, sn) values (new.miner_id, new.worker, new.ip, new.sn);
    end`.execute(db);
    await sql`insert into miner_search (miner_search) values ('rebuild')`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'sqlite') return;
    for (const trigger of ['miner_search_insert', 'miner_search_delete', 'miner_search_update'])
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    await sql`drop table if exists miner_search`.execute(db);
  },
});
