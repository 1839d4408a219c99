import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRepository } from '../db/job.repository.js';
import type { Clock } from '../lib/clock.js';

/** A periodic job. `run` must be idempotent: after a crash another process runs it again. */
export interface Job {
  name: string;
  periodMs: number;
  run(): Promise<unknown>;
}

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
  private running: Promise<void> | undefined;
  private registered = false;
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
    this.registered = false;
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

  /** Stops the loop and waits for a job in progress to finish. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Runs every due job this process can claim; returns the names it ran. Ticks do not overlap. */
  async tick(): Promise<string[]> {
    if (this.running) {
      await this.running;
      return [];
    }
    const ran: string[] = [];
    this.running = (async () => {
      await this.register();
      for (const job of this.jobs) {
        if (await this.claim(job)) {
          ran.push(job.name);
          await this.execute(job);
        }
      }
    })().finally(() => {
      this.running = undefined;
    });
    await this.running;
    return ran;
  }

  private async register(): Promise<void> {
    if (this.registered) return;
    await this.store.register(this.jobs.map((j) => j.name));
    this.registered = true;
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
    // The next run is due one period after this one started, so periods do not drift with run time.
    await this.store.release(job.name, this.owner, started, started + job.periodMs);
  }
}
