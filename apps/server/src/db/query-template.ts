import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { preferPrepared } from './database.js';
import type { DB } from './schema.js';

/** Stands in for one value while a template is built; compiled as a parameter, filled per run. */
class Slot {
  constructor(readonly key: string) {}
}

type Values = Record<string, unknown>;

interface Template {
  query: CompiledQuery;
  /** Per parameter: the key of the value it takes, or a constant of the query. */
  fill: ({ key: string } | { constant: unknown })[];
}

/**
 * Hot queries built and compiled once per shape, then run with each request's values. Building a
 * Kysely query and compiling it took 50–100 µs each for the session lookup and the miner list page
 * (a tenth of such a request's CPU); filling a compiled query's parameters takes nothing. On
 * PostgreSQL the stable SQL text also lets the driver reuse a prepared statement.
 *
 * `build(values)` gets a placeholder for each defined value and may only pass them into the query
 * (as compared or selected values, `limit`, `offset`): everything that changes the SQL text — which
 * filters exist, the sort — must be part of `shape`, and no other varying value may be captured.
 * Under tests every run rebuilds the query with the real values and checks that SQL and parameters
 * match the template's, so a misuse fails loudly.
 */
export class QueryTemplates {
  /** Per database (dialects compile differently), per shape. */
  private readonly byDb = new WeakMap<Kysely<DB>, Map<string, Template>>();
  private readonly verify = process.env.NODE_ENV === 'test';

  constructor(private readonly max = 500) {}

  /** The compiled query of `shape` with these values, for `db`. */
  compile<V extends object, R>(
    db: Kysely<DB>,
    shape: string,
    values: V,
    build: (values: V) => Compilable<R>,
  ): CompiledQuery<R> {
    const given = values as Values;
    let templates = this.byDb.get(db);
    if (!templates) {
      templates = new Map();
      this.byDb.set(db, templates);
    }
    let template = templates.get(shape);
    if (!template) {
      const slots: Values = {};
      for (const key of Object.keys(given)) if (given[key] !== undefined) slots[key] = new Slot(key);
      const query: CompiledQuery = build(slots as V).compile();
      template = {
        query,
        fill: query.parameters.map((p) => (p instanceof Slot ? { key: p.key } : { constant: p })),
      };
      preferPrepared(query.sql);
      if (templates.size >= this.max) templates.clear();
      templates.set(shape, template);
    }
    const parameters = template.fill.map((f) => ('key' in f ? given[f.key] : f.constant));
    const query = { ...template.query, parameters } as CompiledQuery<R>;
    if (this.verify) {
      const direct = build(values).compile();
      if (direct.sql !== query.sql || JSON.stringify(direct.parameters) !== JSON.stringify(parameters))
        throw new Error(`query template "${shape}" does not match its query: ${direct.sql}`);
    }
    return query;
  }

  /** Runs the query of `shape` with these values (see `compile`). */
  async execute<V extends object, R>(
    db: Kysely<DB>,
    shape: string,
    values: V,
    build: (values: V) => Compilable<R>,
  ): Promise<R[]> {
    return (await db.executeQuery(this.compile(db, shape, values, build))).rows;
  }
}
