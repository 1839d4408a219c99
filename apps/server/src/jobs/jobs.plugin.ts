import fp from 'fastify-plugin';
import { updateStatistics } from '../db/database.js';
import { JobRepository } from '../db/job.repository.js';
import {
  applyRetention,
  type HoursRewritten,
  rollupHours,
  rollupMinutes,
} from '../devices/history-rollups.js';
import { type Job, JobRunner, maintenanceLane, rollupShare } from './job-runner.js';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
    /** Features keeping sums of the hourly rollups register here (see `HoursRewritten`). */
    onHoursRewritten: (hook: HoursRewritten) => void;
  }
}

/**
 * The periodic jobs of DESIGN §8 that keep device data honest: offline detection by silence,
 * command timeouts, history rollups and retention, and the database's planner statistics. `start: false` (tests) leaves the loop off;
 * tests call `app.jobs.tick()` after moving the clock.
 */
export const jobsPlugin = fp<{ start: boolean }>(
  async (app, { start }) => {
    const { config, db, clock } = app;
    const rewritten: HoursRewritten[] = [];
    app.decorate('onHoursRewritten', (hook: HoursRewritten) => {
      rewritten.push(hook);
    });
    const jobs: Job[] = [
      {
        name: 'offline-detector',
        periodMs: 10_000,
        run: () => app.deviceStatus.detectSilence((fboxId) => app.ingest.heardAt(fboxId)),
      },
      { name: 'command-timeouts', periodMs: 5_000, run: () => app.commands.expire() },
      {
        name: 'rollup-1m',
        periodMs: 60_000,
        lane: maintenanceLane,
        maxShare: rollupShare,
        run: () => rollupMinutes(db, clock(), config.retentionRawHours * 3_600_000),
      },
      {
        name: 'rollup-1h',
        periodMs: 10 * 60_000,
        lane: maintenanceLane,
        maxShare: rollupShare,
        run: () => rollupHours(db, clock(), config.retention1mDays * 86_400_000, rewritten),
      },
      {
        name: 'retention',
        periodMs: 60 * 60_000,
        lane: maintenanceLane,
        run: () =>
          applyRetention(db, clock(), {
            rawHours: config.retentionRawHours,
            rollup1mDays: config.retention1mDays,
            rollup1hDays: config.retention1hDays,
          }),
      },
      // Planner statistics (SQLite keeps none by itself), analyzed on a thread of their own.
      {
        name: 'db-statistics',
        periodMs: 60 * 60_000,
        lane: maintenanceLane,
        run: () =>
          updateStatistics(db, app.dbDialect, {
            thread: { address: app.dbAddress, writeGate: app.dbWriteGate },
          }),
      },
    ];
    const runner = new JobRunner(new JobRepository(db), clock, jobs, app.log);
    app.decorate('jobs', runner);
    if (start) app.addHook('onReady', async () => runner.start());
    app.addHook('onClose', async () => runner.stop());
  },
  { name: 'jobs', dependencies: ['ingest'] },
);
