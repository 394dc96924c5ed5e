/**
 * Scheduled jobs (node-cron): re-crawls and estimation rounds at the times the settings give,
 * and in-process upkeep tasks (dropping analytics past their retention). A firing is skipped
 * while a job of the same kind, or the same task, is queued or running (no pile-up); each
 * schedule can also be run on demand from the admin API.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Settings } from '../../config/schema.ts';
import type { JobKind, JobRunner } from './job-runner.ts';
import { InvalidCronError } from '../errors.ts';

export interface ScheduleInfo {
  name: string;
  cron: string;
  nextRun: string | null;
  lastFired?: string;
  lastJob?: string;
  skipped: number;
}

interface Entry {
  info: ScheduleInfo;
  busy: () => boolean;
  task: ScheduledTask;
  submit: () => string;
}

/** Daily upkeep at 00:17 (after the day has turned, before the nightly round). */
export const DAILY_UPKEEP_CRON = '17 0 * * *';

export class Schedules {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly runner: JobRunner,
    settings: Settings,
  ) {
    const { schedules, estimation } = settings;
    if (schedules.recrawl) this.add('recrawl', schedules.recrawl, 'recrawl', () => runner.submitRecrawl({ budget: schedules.recrawlBudget }));
    if (schedules.estimate && schedules.estimate !== 'off') {
      this.add('estimate', schedules.estimate, 'round', () => runner.submitRound({ selector: estimation.selector, estimator: estimation.estimator, iterations: estimation.iterations, extra: schedules.estimateBudget }));
    }
  }

  /**
   * An in-process task on a schedule (not a runner job). A run is named `name@ISO time`; a
   * failure is logged, and the next firing runs it again.
   */
  addTask(name: string, expression: string, run: () => Promise<unknown>): void {
    let running = false;
    this.add(name, expression, () => running, () => {
      const id = `${name}@${new Date().toISOString()}`;
      running = true;
      run()
        .catch((error) => process.stderr.write(`schedule ${name}: ${String(error)}\n`))
        .finally(() => {
          running = false;
        });
      return id;
    });
  }

  private add(name: string, expression: string, kind: JobKind | (() => boolean), submit: () => string): void {
    if (!cron.validate(expression)) throw new InvalidCronError(name, expression);
    if (this.entries.has(name)) throw new Error(`schedule ${name} exists already`);
    const entry: Entry = {
      info: { name, cron: expression, nextRun: null, skipped: 0 },
      busy: typeof kind === 'function' ? kind : () => this.runner.busy(kind),
      submit,
      task: cron.schedule(expression, () => void this.fire(name), { name: `lse-${name}`, noOverlap: true }),
    };
    this.entries.set(name, entry);
  }

  /** A firing: submit the job unless one of its kind is already waiting or running. */
  private fire(name: string): string | null {
    const entry = this.entries.get(name)!;
    entry.info.lastFired = new Date().toISOString();
    if (entry.busy()) {
      entry.info.skipped++;
      return null;
    }
    entry.info.lastJob = entry.submit();
    return entry.info.lastJob;
  }

  /** Runs a schedule now: the job id, null when one is already queued or running, undefined for an unknown name. */
  runNow(name: string): string | null | undefined {
    return this.entries.has(name) ? this.fire(name) : undefined;
  }

  list(): ScheduleInfo[] {
    return [...this.entries.values()].map((e) => ({ ...e.info, nextRun: e.task.getNextRun()?.toISOString() ?? null }));
  }

  async stop(): Promise<void> {
    for (const entry of this.entries.values()) await entry.task.destroy();
  }
}
