/**
 * Scheduled jobs (node-cron): re-crawls and estimation rounds at the times the settings give.
 * A firing is skipped while a job of the same kind is queued or running (no pile-up); each
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
  kind: JobKind;
  task: ScheduledTask;
  submit: () => string;
}

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

  private add(name: string, expression: string, kind: JobKind, submit: () => string): void {
    if (!cron.validate(expression)) throw new InvalidCronError(name, expression);
    const entry: Entry = {
      info: { name, cron: expression, nextRun: null, skipped: 0 },
      kind,
      submit,
      task: cron.schedule(expression, () => void this.fire(name), { name: `lse-${name}`, noOverlap: true }),
    };
    this.entries.set(name, entry);
  }

  /** A firing: submit the job unless one of its kind is already waiting or running. */
  private fire(name: string): string | null {
    const entry = this.entries.get(name)!;
    entry.info.lastFired = new Date().toISOString();
    if (this.runner.busy(entry.kind)) {
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
