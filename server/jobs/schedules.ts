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
import { cronInWords } from './cron-words.ts';

/** The schedules an admin may set or change (the others are upkeep). */
export const EDITABLE_SCHEDULES = ['recrawl', 'estimate'] as const;
export type EditableSchedule = (typeof EDITABLE_SCHEDULES)[number];

export interface ScheduleInfo {
  name: string;
  /** The cron expression, or `off`. */
  cron: string;
  /** The expression in words, and the time zone it fires in (the server's). */
  description?: string;
  timeZone?: string;
  editable?: boolean;
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
  private readonly submitters: Record<EditableSchedule, { kind: JobKind; submit: () => string }>;

  constructor(
    private readonly runner: JobRunner,
    settings: Settings,
    /** Expressions an admin set (`off` for none), over those of the settings. */
    edited: Partial<Record<EditableSchedule, string>> = {},
  ) {
    const { schedules, estimation } = settings;
    this.submitters = {
      recrawl: { kind: 'recrawl', submit: () => runner.submitRecrawl({ budget: schedules.recrawlBudget }) },
      estimate: { kind: 'round', submit: () => runner.submitRound({ selector: estimation.selector, estimator: estimation.estimator, iterations: estimation.iterations, extra: schedules.estimateBudget }) },
    };
    for (const name of EDITABLE_SCHEDULES) {
      const expression = edited[name] ?? schedules[name];
      // An expression stored by an earlier server that no longer validates falls back to the settings'.
      const usable = expression && expression !== 'off' && cron.validate(expression) ? expression : edited[name] ? schedules[name] : undefined;
      if (usable && usable !== 'off') this.add(name, usable, this.submitters[name].kind, this.submitters[name].submit);
    }
  }

  /**
   * Sets (or, with `off`, removes) an editable schedule, from the next firing on: no restart.
   * Throws InvalidCronError for an expression node-cron cannot read.
   */
  async edit(name: EditableSchedule, expression: string): Promise<void> {
    const trimmed = expression.trim().replace(/\s+/g, ' ');
    if (trimmed !== 'off' && !cron.validate(trimmed)) throw new InvalidCronError(name, expression);
    const existing = this.entries.get(name);
    if (existing) {
      await existing.task.destroy();
      this.entries.delete(name);
    }
    if (trimmed !== 'off') this.add(name, trimmed, this.submitters[name].kind, this.submitters[name].submit);
    if (existing) {
      const added = this.entries.get(name);
      if (added) Object.assign(added.info, { lastFired: existing.info.lastFired, lastJob: existing.info.lastJob, skipped: existing.info.skipped });
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
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const listed = [...this.entries.values()].map((e) => ({
      ...e.info,
      description: cronInWords(e.info.cron),
      timeZone,
      editable: (EDITABLE_SCHEDULES as readonly string[]).includes(e.info.name),
      nextRun: e.task.getNextRun()?.toISOString() ?? null,
    }));
    // The editable ones that are off are listed too, so an admin can turn them on.
    for (const name of EDITABLE_SCHEDULES) if (!this.entries.has(name)) listed.push({ name, cron: 'off', description: 'off', timeZone, editable: true, nextRun: null, skipped: 0 });
    return listed;
  }

  async stop(): Promise<void> {
    for (const entry of this.entries.values()) await entry.task.destroy();
  }
}
