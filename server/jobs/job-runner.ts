/**
 * The job runner of a served data directory: estimation rounds, crawls and re-crawls run one at
 * a time in the order they were asked for (so only one round ever runs, and a crawl never races
 * a round for the store). Every status is persisted; a round interrupted by a crash is resumed
 * when the server starts. After each job the text index and the rank vectors follow the store.
 */
import { EventEmitter } from 'node:events';
import type { Settings } from '../../config/schema.ts';
import type { CrawlSummary } from '../../crawler/crawl-loop.ts';
import type { Scope } from '../../crawler/scope.ts';
import type { SearchEngine } from '../../indexer/ranking/search-engine.ts';
import { refreshRanks, refreshSearchData } from '../../indexer/ranking/search-data.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { isIndexablePage, pageToDocument } from '../../indexer/text-index/store-adapter.ts';
import type { TextIndex } from '../../indexer/text-index/text-index.ts';
import { sitemapOption, type CrawlStack } from '../cli/crawl-setup.ts';
import { isRoundKey, resumeEstimationRound, runEstimationRound, type RoundParameters, type RoundStatus } from './estimation-round.ts';
import type { DataDirDomain } from './local-domain.ts';
import { storeLocalPageRank } from './local-pagerank.ts';
import { newJobId } from './job-id.ts';
import { runRecrawl, type RecrawlParameters, type RecrawlResult } from './recrawl.ts';
import { JobExistsError, UnscopedDataDirError } from '../errors.ts';

export type JobKind = 'round' | 'crawl' | 'recrawl' | 'import';
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobStatus {
  id: string;
  kind: JobKind;
  state: JobState;
  queuedAt: number;
  startedAt?: number;
  finishedAt?: number;
  error?: string;
  /** The failure's code (server/errors.ts), when it has one. */
  errorCode?: string;
  /** Rounds: the round's status; crawls and re-crawls: their summary. */
  round?: RoundStatus;
  crawl?: Omit<CrawlSummary, 'rejected' | 'byState' | 'storedIds'> & { byState: Record<string, number> };
  recrawl?: Omit<RecrawlResult, 'updatedIds' | 'removedIds'>;
  /** The job's index change was held back: it would remove too large a share of the index. */
  heldIndexChange?: HeldIndexChange;
  progress?: Record<string, number | string | undefined>;
}

export interface HeldIndexChange {
  reason: string;
  /** Pages the change would remove from the index, pages indexed now, and the allowed share. */
  removing: number;
  indexed: number;
  maxShare: number;
  /** When an admin applied it anyway, or discarded it (the index keeps what it had). */
  appliedAt?: number;
  discardedAt?: number;
  /** A few of the URLs it would remove (all of them: GET /api/admin/jobs/:id/held-index). */
  sample?: string[];
}

/** URLs of a held change shown with it (the API lists them all). */
const HELD_SAMPLE_SIZE = 20;

export interface JobContext {
  store: CrawlStore;
  stack: CrawlStack;
  settings: Settings;
  scope: Scope;
  /** How the data directory decides local pages (default: by `scope`); see local-domain.ts. */
  domain?: DataDirDomain;
  index: TextIndex;
  engine: SearchEngine;
  truthOf?: (urls: readonly string[]) => Float64Array;
  /** The clock of re-crawls (tests move it on instead of sleeping). */
  now?: () => number;
}

interface QueuedJob {
  status: JobStatus;
  controller: AbortController;
  run: (job: QueuedJob) => Promise<void>;
}

export class JobRunner extends EventEmitter {
  private readonly jobs = new Map<string, QueuedJob>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** Index changes held back by the removal guard, by job id, until an admin applies them. */
  private readonly heldChanges = new Map<string, { updated: readonly number[]; removed: readonly number[] }>();

  constructor(private readonly context: JobContext) {
    super();
    this.setMaxListeners(0);
  }

  /** Queues interrupted or queued rounds found in the store (after a crash). */
  async resumeInterrupted(): Promise<string[]> {
    const resumed: string[] = [];
    for await (const [key, value] of this.context.store.jobs<RoundStatus & { kind?: string }>()) {
      if (!isRoundKey(key) || value.kind !== 'estimation-round') continue;
      if (value.state === 'running' || value.state === 'queued') {
        this.enqueue('round', key, (job) => this.runRound(job, undefined));
        resumed.push(key);
      }
    }
    return resumed;
  }

  submitRound(parameters: RoundParameters): string {
    const id = newJobId('round');
    const job = this.enqueue('round', id, (j) => this.runRound(j, parameters));
    const queued: RoundStatus = {
      id,
      state: 'queued',
      selector: parameters.selector,
      iterations: parameters.iterations,
      iteration: 0,
      crawled: 0,
      frontier: 0,
      change: 0,
      history: [],
      localPages: 0,
      extraPages: 0,
      startedAt: job.status.queuedAt,
    };
    job.status.round = queued;
    // Persisted, so a round still waiting when the server dies is started after a restart.
    void this.context.store.batch().putJob(id, { kind: 'estimation-round', parameters, ...queued }).commit();
    return id;
  }

  submitCrawl(maxPages?: number): string {
    return this.enqueue('crawl', newJobId('crawl'), (job) => this.runCrawl(job, maxPages)).status.id;
  }

  submitRecrawl(parameters: RecrawlParameters): string {
    return this.enqueue('recrawl', newJobId('recrawl'), (job) => this.runRecrawlJob(job, parameters)).status.id;
  }

  /**
   * Takes up pages imported into the store (`POST /api/admin/documents`): re-indexes them and
   * recomputes the local PageRank after the jobs queued before, as after a crawl.
   */
  submitImport(changedIds: readonly number[]): string {
    return this.enqueue('import', newJobId('import'), (job) => this.refreshIndex(job, changedIds, [])).status.id;
  }

  /** Is a job of this kind queued or running (schedules skip rather than pile up)? */
  busy(kind: JobKind): boolean {
    for (const job of this.jobs.values()) if (job.status.kind === kind && (job.status.state === 'queued' || job.status.state === 'running')) return true;
    return false;
  }

  /** Is any job running now (searches then take turns with it)? */
  running(): boolean {
    for (const job of this.jobs.values()) if (job.status.state === 'running') return true;
    return false;
  }

  status(id: string): JobStatus | undefined {
    return this.jobs.get(id)?.status;
  }

  /** Rounds known to this server and those stored by earlier runs, newest first. */
  async rounds(): Promise<RoundStatus[]> {
    const out = new Map<string, RoundStatus>();
    for await (const [key, value] of this.context.store.jobs<RoundStatus & { kind?: string }>()) {
      if (isRoundKey(key) && value.kind === 'estimation-round') out.set(key, value);
    }
    for (const job of this.jobs.values()) if (job.status.kind === 'round' && job.status.round) out.set(job.status.id, job.status.round);
    return [...out.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  async round(id: string): Promise<RoundStatus | undefined> {
    const live = this.jobs.get(id)?.status.round;
    if (live) return live;
    const stored = await this.context.store.getJob<RoundStatus & { kind?: string }>(id);
    return stored && stored.kind === 'estimation-round' ? stored : undefined;
  }

  list(): JobStatus[] {
    return [...this.jobs.values()].map((j) => j.status).sort((a, b) => b.queuedAt - a.queuedAt);
  }

  /** Cancels a queued or running job; false when it is unknown or already over. */
  cancel(id: string): boolean {
    const job = this.jobs.get(id);
    if (!job || !(job.status.state === 'queued' || job.status.state === 'running')) return false;
    job.controller.abort();
    if (job.status.state === 'queued') {
      if (job.status.round) job.status.round = { ...job.status.round, state: 'cancelled', finishedAt: Date.now() };
      this.finish(job, 'cancelled');
      if (job.status.round) void this.context.store.batch().putJob(id, { kind: 'estimation-round', ...job.status.round }).commit();
    }
    return true;
  }

  /** Waits for every queued job (tests, shutdown after cancel). */
  async idle(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.queue;
      await current;
    } while (current !== this.queue);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) if (job.status.state === 'running' || job.status.state === 'queued') job.controller.abort();
    await this.idle();
  }

  private enqueue(kind: JobKind, id: string, run: (job: QueuedJob) => Promise<void>): QueuedJob {
    if (this.jobs.has(id)) throw new JobExistsError(id);
    const job: QueuedJob = { status: { id, kind, state: 'queued', queuedAt: Date.now() }, controller: new AbortController(), run };
    this.jobs.set(id, job);
    this.queue = this.queue.then(async () => {
      if (job.status.state !== 'queued' || this.closed) return;
      job.status.state = 'running';
      job.status.startedAt = Date.now();
      this.publish(job);
      try {
        await job.run(job);
        if (job.status.state === 'running') this.finish(job, job.controller.signal.aborted ? 'cancelled' : 'done');
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('LSE_')) job.status.errorCode = code;
        this.finish(job, job.controller.signal.aborted ? 'cancelled' : 'failed', (error as Error).message);
      }
    });
    this.publish(job);
    return job;
  }

  private finish(job: QueuedJob, state: JobState, error?: string): void {
    job.status.state = state;
    job.status.finishedAt = Date.now();
    if (error) job.status.error = error;
    this.publish(job);
  }

  private publish(job: QueuedJob): void {
    this.emit(`job:${job.status.id}`, job.status);
    this.emit('job', job.status);
  }

  private async runRound(job: QueuedJob, parameters: RoundParameters | undefined): Promise<void> {
    const { store, stack, settings, scope, domain, truthOf } = this.context;
    const hooks = {
      signal: job.controller.signal,
      onProgress: (status: RoundStatus) => {
        // 'done' is shown once the search uses the new ranks (below), not before.
        if (status.state === 'done') return;
        job.status.round = { ...status, history: [...status.history] };
        this.publish(job);
      },
    };
    const context = { store, stack, settings, scope, domain, truthOf };
    const status = parameters ? await runEstimationRound(context, job.status.id, parameters, hooks) : await resumeEstimationRound(context, job.status.id, hooks);
    if (status.state === 'done') await this.refreshRanks();
    job.status.round = status;
    this.finish(job, status.state === 'done' ? 'done' : status.state === 'cancelled' ? 'cancelled' : 'failed', status.error);
  }

  private async runCrawl(job: QueuedJob, maxPages: number | undefined): Promise<void> {
    const { stack, settings, scope, domain } = this.context;
    const crawler = settings.crawler;
    if (domain?.kind === 'stored') {
      throw new UnscopedDataDirError();
    }
    const summary = await stack.crawler.crawl({
      seeds: crawler.seeds,
      // A topic crawl goes on as it began: the topic decides what is local, the scope bounds it.
      scope: domain?.scope ?? scope,
      topic: domain?.kind === 'topic' ? domain.topic : undefined,
      ordering: crawler.ordering,
      maxPages: maxPages ?? crawler.maxPages,
      maxDepth: crawler.maxDepth,
      hostPageBudget: crawler.hostPageBudget,
      concurrency: crawler.concurrency,
      nearDuplicateThreshold: crawler.nearDuplicateThreshold,
      sitemaps: sitemapOption(crawler),
      log: (message) => process.stderr.write(`crawl ${job.status.id}: ${message}\n`),
      signal: job.controller.signal,
      onProgress: (p) => {
        job.status.progress = { stored: p.stored, pagesPerSecond: Math.round(p.pagesPerSecond), frontier: p.frontier, errors: p.errors };
        this.publish(job);
      },
    });
    const { rejected: _rejected, storedIds, ...rest } = summary;
    job.status.crawl = rest;
    await this.refreshIndex(job, storedIds, []);
  }

  private async runRecrawlJob(job: QueuedJob, parameters: RecrawlParameters): Promise<void> {
    const { store, stack, settings, scope, domain } = this.context;
    const log = (message: string) => process.stderr.write(`re-crawl ${job.status.id}: ${message}\n`);
    const result = await runRecrawl(
      { store, stack, scope, domain, concurrency: settings.crawler.concurrency, log, sitemaps: sitemapOption(settings.crawler), seeds: settings.crawler.seeds, recrawl: settings.recrawl, now: this.context.now },
      parameters,
      job.controller.signal,
    );
    const { updatedIds, removedIds, ...counts } = result;
    job.status.recrawl = counts;
    await this.refreshIndex(job, updatedIds, removedIds);
  }

  /** Jobs whose index change is held back, with why. */
  heldIndexChanges(): Array<{ job: string } & HeldIndexChange> {
    return [...this.heldChanges.keys()].flatMap((id) => {
      const held = this.jobs.get(id)?.status.heldIndexChange;
      return held ? [{ job: id, ...held }] : [];
    });
  }

  /** Every URL a held change would remove from the index, or undefined when the job holds none. */
  heldIndexUrls(jobId: string): string[] | undefined {
    const held = this.heldChanges.get(jobId);
    if (!held) return undefined;
    const index = this.context.index;
    return held.removed.filter((id) => index.has(id)).map((id) => this.context.store.urlOf(id) ?? `#${id}`);
  }

  /**
   * Discards a held index change: the index keeps serving what it had (the pages stay out of
   * date until a later re-crawl finds them again). False when the job has no held change.
   */
  discardHeldIndexChange(jobId: string): boolean {
    const job = this.jobs.get(jobId);
    if (!this.heldChanges.delete(jobId) || !job) return false;
    job.status.heldIndexChange = { ...job.status.heldIndexChange!, discardedAt: Date.now() };
    this.publish(job);
    return true;
  }

  /**
   * Applies a held index change anyway (after the jobs queued before it). Resolves to false when
   * the job has no held change.
   */
  applyHeldIndexChange(jobId: string): Promise<boolean> {
    const held = this.heldChanges.get(jobId);
    const job = this.jobs.get(jobId);
    if (!held || !job) return Promise.resolve(false);
    this.heldChanges.delete(jobId);
    const applying = this.queue.then(async () => {
      await this.refreshIndex(job, held.updated, held.removed, true);
      job.status.heldIndexChange = { ...job.status.heldIndexChange!, appliedAt: Date.now() };
      this.publish(job);
    });
    this.queue = applying.catch(() => {});
    return applying.then(() => true);
  }

  /**
   * Re-indexes the given pages (dropping those no longer indexable) and recomputes the local
   * PageRank — unless the change would remove more than the allowed share of the index: then it
   * is held (the index keeps serving what it had) until an admin applies it.
   */
  private async refreshIndex(job: QueuedJob, updated: readonly number[], removed: readonly number[], force = false): Promise<void> {
    const { store, settings } = this.context;
    if (!(await this.changeIndex(job, updated, removed, force))) return;
    await refreshSearchData(this.context.engine, store, [...new Set([...updated, ...removed])]);
    await storeLocalPageRank(store, settings.estimation.alpha, settings.estimation.tolerance);
    await this.refreshRanks();
  }

  /**
   * The text index's part of {@link refreshIndex}; false when the change is held. A function of its
   * own so that the changed pages' documents (their whole text) are let go once indexed: kept
   * for the rest of the job, a 1 % update at a million pages held 80,000 more objects in the
   * heap for a minute, for every collection of it to mark.
   */
  private async changeIndex(job: QueuedJob, updated: readonly number[], removed: readonly number[], force: boolean): Promise<boolean> {
    const { store, index, settings } = this.context;
    const upsert = [];
    const remove = new Set(removed);
    for await (const [id, page] of store.pagesOf(updated)) {
      if (page && isIndexablePage(page)) upsert.push(pageToDocument(id, page));
      else remove.add(id);
    }
    const indexed = index.info().documentCount;
    const maxShare = settings.index.maxRemovedShare;
    // Only pages the index holds count (a new page found to be a duplicate or global was never in it).
    let removing = 0;
    if (!force && indexed > 0 && remove.size > maxShare * indexed) for (const id of remove) if (index.has(id)) removing++;
    if (removing > maxShare * indexed) {
      const share = (100 * removing) / indexed;
      job.status.heldIndexChange = {
        reason: `the change would remove ${removing} of ${indexed} indexed pages (${share.toFixed(1)} %, more than the ${(100 * maxShare).toFixed(0)} % allowed by index.maxRemovedShare): the index is unchanged until an admin applies it (POST /api/admin/jobs/${job.status.id}/apply-index)`,
        removing,
        indexed,
        maxShare,
      };
      this.heldChanges.set(job.status.id, { updated, removed: [...remove] });
      job.status.heldIndexChange.sample = this.heldIndexUrls(job.status.id)!.slice(0, HELD_SAMPLE_SIZE);
      process.stderr.write(`${job.status.kind} ${job.status.id}: index change held: ${job.status.heldIndexChange.reason}\n`);
      return false;
    }
    if (upsert.length > 0 || remove.size > 0) await index.update({ upsert, remove: [...remove] });
    return true;
  }

  private async refreshRanks(): Promise<void> {
    await refreshRanks(this.context.engine, this.context.store);
  }
}
