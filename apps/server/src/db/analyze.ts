/**
 * ANALYZE of one index (the statements, run in one transaction), keeping only its `sqlite_stat1`
 * row (how many rows share each key prefix) and not the samples of its keys that STAT4 adds
 * (better-sqlite3 is built with it). A plan made from samples depends on the values bound, so
 * SQLite prepares such a statement again whenever a value is bound to it: every miner list page
 * (`area_id = ?` leads each of the miners' indexes) was parsed and planned anew, and a page of 20
 * miners took 150–210 µs instead of 50–80. One transaction, so no connection reads the samples;
 * the second statement only where the samples' table exists.
 */
export const analyzeIndex = (index: string): [analyze: string, drop: string] => [
  `analyze "${index.replaceAll('"', '""')}"`,
  `delete from sqlite_stat4 where idx = '${index.replaceAll("'", "''")}'`,
];
