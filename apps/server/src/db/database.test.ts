import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachingStatements } from './database.js';

describe('SQLite statement cache', () => {
  it('reuses a statement by SQL text, prepares anew while one iterates, and evicts the oldest', () => {
    const sqlite = new SQLite(':memory:');
    const db = cachingStatements(sqlite, 2);
    const a = db.prepare('select 1 as n');
    expect(db.prepare('select 1 as n')).toBe(a);
    expect(a.all([])).toEqual([{ n: 1 }]);

    // A statement still iterating (a stream) is busy: the caller gets a fresh one.
    const iterating = db.prepare('select 2 as n');
    const rows = iterating.iterate([]);
    rows.next();
    const other = db.prepare('select 2 as n');
    expect(other).not.toBe(iterating);
    expect(other.all([])).toEqual([{ n: 2 }]);
    rows.return?.();
    expect(db.prepare('select 2 as n')).toBe(iterating);

    // Capacity 2: 'select 1' was used before 'select 2', so a third text evicts it.
    db.prepare('select 3 as n');
    expect(db.prepare('select 1 as n')).not.toBe(a);
    db.close();
  });
});
