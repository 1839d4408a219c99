import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openSqlite } from './database.js';
import { QueryTemplates } from './query-template.js';

describe('query templates', () => {
  let database: Database;
  afterEach(() => database?.close());

  const open = async () => {
    database = openSqlite(':memory:');
    await sql`create table t (id integer primary key, name text not null)`.execute(database.db);
    await sql`insert into t (id, name) values (1, 'a'), (2, 'b'), (3, 'c')`.execute(database.db);
    // The table is not part of the app's schema: build queries through an untyped view.
    return database.db as never as Kysely<{ t: { id: number; name: string } }>;
  };

  it('builds a shape once and runs it with each call’s values', async () => {
    const db = await open();
    const templates = new QueryTemplates();
    let builds = 0;
    const byId = (id: number, limit: number) =>
      templates.execute(database.db, 'by-id', { id, limit }, (v) => {
        builds++;
        return db.selectFrom('t').select('name').where('id', '>=', v.id).orderBy('id').limit(v.limit);
      });
    expect(await byId(1, 1)).toEqual([{ name: 'a' }]);
    expect(await byId(2, 5)).toEqual([{ name: 'b' }, { name: 'c' }]);
    // Under tests each run also builds the query directly to check the template (1 + 2 runs).
    expect(builds).toBe(3);
  });

  it('leaves unset values out of the placeholders, so the shape decides which filters exist', async () => {
    const db = await open();
    const templates = new QueryTemplates();
    const find = (name?: string) =>
      templates.execute(database.db, `find|${name === undefined ? '' : 'name'}`, { name }, (v) => {
        let q = db.selectFrom('t').select('id').orderBy('id');
        if (v.name !== undefined) q = q.where('name', '=', v.name);
        return q;
      });
    expect(await find('b')).toEqual([{ id: 2 }]);
    expect(await find()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(await find('c')).toEqual([{ id: 3 }]);
  });

  it('fails when the query depends on a value the shape does not name', async () => {
    const db = await open();
    const templates = new QueryTemplates();
    const wrong = (id: number) =>
      templates.execute(database.db, 'wrong', { id }, (v) =>
        // A branch on the value: the template would keep the first call's SQL.
        typeof v.id === 'number' && v.id > 1
          ? db.selectFrom('t').select('id').where('id', '>', 1)
          : db.selectFrom('t').select('id').where('id', '=', v.id),
      );
    expect(await wrong(1)).toEqual([{ id: 1 }]);
    await expect(wrong(2)).rejects.toThrow(/does not match/);
  });
});
