import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRepository } from '../db/job.repository.js';
import type { Clock } from '../lib/clock.js';

/** A periodic job. `run` must be idempotent: after a crash another process runs it again. */
export interface Job {
  name: string;
  periodMs: number;
  run(): Promise<unknown>;
  /**
   * Jobs of one lane run one after another; lanes run side by side, so a long job never holds a
   * short one of another lane (a command's timeout behind a rollup of a large mine). Default: the
   * job's own lane.
   */
  lane?: string;
  /**
   * At most this share of the time: a run that took `d` is next due `d / maxShare` after it
   * started, when that is later than a period. For a job whose work grows with the data it
   * recomputes (a rollup of a large mine): it then runs less often instead of all the time.
   */
  maxShare?: number;
}

/** The lane of the jobs that rewrite stored data (rollups, retention, planner statistics). */
export const maintenanceLane = 'maintenance';

/**
 * The most of the time a rollup may take: one that recomputes more than it used to (a large mine
 * late in the hour) then runs less often, leaving the rest of the time to ingest and requests.
 */
export const rollupShare = 0.25;

/** How long a claim protects a running job; a crashed holder's job is taken over after it. */
const leaseMs = 5 * 60_000;

/**
 * The job loop of every server process. Each job has a row in `jobs`; a process runs it when it wins
 * the conditional update that claims a due, unleased row, so with several processes each job runs
 * once per period. Time comes from the injected clock; tests call `tick()` instead of waiting.
 */
export class JobRunner {
  readonly owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  /** The lanes with a job in progress in this process, and their work. */
  private readonly lanes = new Map<string, Promise<void>>();
  private registering: Promise<void> | undefined;
  private readonly startListeners: (() => void)[] = [];

  constructor(
    private readonly store: JobRepository,
    private readonly clock: Clock,
    private readonly jobs: Job[],
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Adds a job (a feature's, at registration); its lease row is created at the next tick. */
  add(job: Job): void {
    if (this.jobs.some((j) => j.name === job.name)) throw new Error(`Job ${job.name} is added twice`);
    this.jobs.push(job);
    this.registering = undefined;
  }

  /** Runs `listener` when the loop starts: loops of their own that run with it (the task engine's). */
  onStart(listener: () => void): void {
    this.startListeners.push(listener);
  }

  /** Starts ticking every `intervalMs` (real time; each tick reads the injected clock). */
  start(intervalMs = 1000): void {
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
    for (const listener of this.startListeners) listener();
  }

  /** Stops the loop and waits for the jobs in progress to finish. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.lanes.values());
  }

  /**
   * Starts every lane not already busy in this process, each running its due jobs (those this
   * process can claim) in order; resolves when the lanes it started are done, with the names of
   * the jobs they ran.
   */
  async tick(): Promise<string[]> {
    await this.register();
    const ran: string[] = [];
    const started: Promise<void>[] = [];
    for (const [lane, jobs] of this.byLane()) {
      if (this.lanes.has(lane)) continue;
      const work = (async () => {
        for (const job of jobs)
          if (await this.claim(job)) {
            ran.push(job.name);
            await this.execute(job);
          }
      })().finally(() => this.lanes.delete(lane));
      this.lanes.set(lane, work);
      started.push(work);
    }
    await Promise.all(started);
    return ran;
  }

  /** The jobs by lane, in the order they were added. */
  private byLane(): Map<string, Job[]> {
    const lanes = new Map<string, Job[]>();
    for (const job of this.jobs) {
      const lane = job.lane ?? job.name;
      const jobs = lanes.get(lane);
      if (jobs) jobs.push(job);
      else lanes.set(lane, [job]);
    }
    return lanes;
  }

  private register(): Promise<void> {
    this.registering ??= this.store.register(this.jobs.map((j) => j.name)).catch((error: unknown) => {
      this.registering = undefined;
      throw error;
    });
    return this.registering;
  }

  private claim(job: Job): Promise<boolean> {
    const now = this.clock();
    return this.store.claim(job.name, this.owner, now, now + leaseMs);
  }

  private async execute(job: Job): Promise<void> {
    const started = this.clock();
    try {
      await job.run();
    } catch (error) {
      this.log.error({ err: error, job: job.name }, 'job failed');
    }
    // The next run is due one period after this one started, so periods do not drift with run
    // time; a job with a share waits longer after a long run.
    const took = this.clock() - started;
    const period = job.maxShare ? Math.max(job.periodMs, Math.round(took / job.maxShare)) : job.periodMs;
    await this.store.release(job.name, this.owner, started, started + period);
  }
}
