import type { Kysely, Migration } from 'kysely';

/**
 * Telemetry de-duplication by message identity instead of a high-water mark (issue: one absurd
 * `seq`, or a gateway whose counter restarted, made every later message a "duplicate"). A box sample
 * now carries its message's `seq`, and `(fbox_id, ts, seq)` is unique: inserting the sample is the
 * claim, and a redelivery (same seq, same ts) claims nothing. Rows written before this have no seq
 * and never collide. `fbox_state.last_ts` is the `ts` of the message the latest state came from, so
 * an older message that arrives late adds history without turning the state back.
 */
export const ingestIdentityMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('fbox_samples').addColumn('seq', 'bigint').execute();
    await db.schema
      .createIndex('fbox_samples_message')
      .on('fbox_samples')
      .columns(['fbox_id', 'ts', 'seq'])
      .unique()
      .execute();
    await db.schema
      .alterTable('fbox_state')
      .addColumn('last_ts', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('fbox_state').dropColumn('last_ts').execute();
    await db.schema.dropIndex('fbox_samples_message').execute();
    await db.schema.alterTable('fbox_samples').dropColumn('seq').execute();
  },
};
