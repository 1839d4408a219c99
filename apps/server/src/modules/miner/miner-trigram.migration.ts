import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';

/** The index, and the columns the list's keyword matches (`lower(column) like '%…%'`). */
export const trigramIndex = 'miner_state_keyword_trigrams';
const keywordColumns = ['worker', 'ip', 'sn'] as const;

/**
 * PostgreSQL: a trigram index (`pg_trgm`, GIN) of each miner's worker, IP and SN, lower-cased as
 * the list's keyword compares them, so a keyword of 3 characters or more finds its miners from the
 * index instead of reading the whole mine. Looking one miner up by its SN read every row of a
 * 1,000,000-miner mine: 3.5 s at 8 requests at once (docs/performance.md, "The list at 1,000,000
 * miners on both databases"). SQLite has its own trigram index since `0040`.
 *
 * A sample's update sets none of the three columns, so it stays a HOT update and writes nothing
 * here; an update that finds no room on its page writes the row's trigrams to the index's pending
 * list (GIN `fastupdate`), as it writes every other index of the row.
 *
 * `pg_trgm` ships with PostgreSQL (contrib) and is a trusted extension: the database's owner may
 * create it. Where the server cannot have it, the migration leaves the index out and the keyword
 * reads the rows, as before. The operator class is named with the extension's schema, so a
 * connection whose `search_path` leaves that schema out still finds it.
 */
export const minerTrigramMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    const available = await sql<{ name: string }>`select name from pg_available_extensions
      where name = 'pg_trgm'`.execute(db);
    if (available.rows.length === 0) return;
    await sql`create extension if not exists pg_trgm`.execute(db);
    const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    const opclass = sql`${sql.id(rows[0]!.schema)}.gin_trgm_ops`;
    const columns = sql.join(
      keywordColumns.map((column) => sql`lower(${sql.ref(column)}) ${opclass}`),
      sql`, `,
    );
    await sql`create index ${sql.id(trigramIndex)} on miner_state using gin (${columns})`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await sql`drop index if exists ${sql.id(trigramIndex)}`.execute(db);
  },
});
