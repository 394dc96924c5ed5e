/**
 * The crawl loop: from the seeds, inside the scope, in the order of an ordering metric, every
 * request polite (one host gate), every result stored. Resumable: all state is rebuilt from the
 * store — fetched pages are never fetched again, and the frontier is what the store says.
 *
 * How order and politeness meet: the ordering names the next URL; it goes to its host's queue
 * and the host gate decides when that host may be visited. Only a bounded number of URLs are
 * taken from the ordering ahead of time, so the ordering's priorities still decide. One
 * dispatcher waits on the gate and starts up to `concurrency` pages; a page gives its host back
 * as soon as its body is read, so the next request to the host goes out while it is parsed.
 *
 * Topic crawls (`options.topic`, topic-tracker.ts): the scope is where the crawler may go
 * (`regex:^https?://` for the whole web), the topic what is local.
 *
 * The parts: crawl-resume.ts rebuilds the state from the store, host-queues.ts holds the URLs
 * taken ahead, dispatch-pool.ts starts pages as the gate allows, crawl-sitemaps.ts reads sitemaps
 * in the same slots, topic-tracker.ts judges pages of a topic crawl; a `CrawlRun` here ties them
 * together for one call of `Crawler.crawl`.
 */
import { setMaxListeners } from 'node:events';
import type { CrawlStore } from '../indexer/store/crawl-store.ts';
import { addSeeds, loadKnownPages, replayFrontier, SeedError, type KnownPages } from './crawl-resume.ts';
import { CrawlDiagnosis, causeOf, type HostDiagnosis } from './crawl-diagnosis.ts';
import { CrawlRecorder, hostOf, type Recorded } from './crawl-recorder.ts';
import { DispatchPool } from './dispatch-pool.ts';
import type { Fetcher } from './fetcher.ts';
import { HostQueues } from './host-queues.ts';
import { createOrdering, rankMassLowerBound, type CrawlOrdering, type OrderingName } from './ordering.ts';
import type { PageFetcher } from './page-fetch.ts';
import { PageLimit, type PageInFlight } from './page-limit.ts';
import { fetchInSlot } from './polite-page.ts';
import type { PoliteGate } from './politeness.ts';
import type { RobotsPolicy } from './robots.ts';
import type { Scope } from './scope.ts';
import { CrawlSitemaps, type CrawlSitemapTask, type ListedContext } from './crawl-sitemaps.ts';
import type { ListedPage, SitemapBudget, SitemapReport } from './sitemap-discovery.ts';
import type { SitemapAlternate } from './sitemap-parse.ts';
import { hotLinkTest, TopicSettingsError, type TopicSettings } from './topic.ts';
import { TopicTracker } from './topic-tracker.ts';
import type { UrlRules } from './url.ts';

export { TOPIC_FREQUENCIES_META } from './topic-tracker.ts';

export interface CrawlOptions {
  seeds: readonly string[];
  scope: Scope;
  ordering: OrderingName;
  /** Stop when this many pages are stored (this run and earlier ones together). */
  maxPages: number;
  maxDepth: number;
  /** Most pages fetched per host. */
  hostPageBudget: number;
  /** Parallel fetches (the fetcher caps them too). */
  concurrency: number;
  /** RankMass orderings stop when the guaranteed coverage reaches 1 − ε. */
  rankMassEpsilon?: number;
  rankMassWindow?: number;
  /** MinHash resemblance above which local pages are near duplicates (default 0.9). */
  nearDuplicateThreshold?: number;
  /** Focused crawling: a link is hot when its anchor text or URL contains one of these terms. */
  topicTerms?: readonly string[];
  /**
   * Topic scope: pages are local by their similarity to these terms, links are followed within
   * `maxDistance` of a hot page (and inside `scope`). Its terms also make hot links.
   */
  topic?: TopicSettings;
  /**
   * Read sitemaps beside the pages (crawl-sitemaps.ts): those of the seeds' origins, the `named`
   * ones, and those of each in-scope host when first linked; listed in-scope pages join the
   * frontier as each file is read. Not for topic crawls (the topic decides what is local).
   */
  sitemaps?: { named?: readonly string[]; budget?: Partial<SitemapBudget> };
  /** Where notes go (sitemaps skipped or cut, and why). */
  log?: (message: string) => void;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
  /** Milliseconds between progress reports (default 250). */
  progressEveryMs?: number;
  now?: () => number;
}

export interface CrawlProgress {
  stored: number;
  fetchedThisRun: number;
  pagesPerSecond: number;
  frontier: number;
  hosts: number;
  errors: number;
  inFlight: number;
  coverage: number | undefined;
}

export type StopReason = 'max-pages' | 'frontier-empty' | 'coverage' | 'aborted';

export interface CrawlSummary {
  stoppedBecause: StopReason;
  /** Pages stored in total, and fetched by this run. */
  stored: number;
  fetchedThisRun: number;
  /** Ids of the pages this run stored. */
  storedIds: number[];
  byState: Record<string, number>;
  duplicates: number;
  /** URLs refused by the URL rules, by reason (spider traps among them). */
  rejected: Record<string, number>;
  /** Pages left unfetched because their host used its budget. */
  overBudget: number;
  /** Guaranteed share of the seeds' personalised PageRank held by the stored pages (RankMass bound). */
  coverageBound: number;
  /** Topic crawls: pages fetched by this run that passed the similarity threshold (local) and that did not. */
  topicPages?: { local: number; global: number };
  /** What the sitemaps gave, when they were read. */
  sitemaps?: SitemapReport;
  /** Why pages were not stored, per host and cause, with what to do. */
  diagnosis: HostDiagnosis[];
  frontier: number;
  seconds: number;
  pagesPerSecond: number;
}

export interface CrawlerDeps {
  store: CrawlStore;
  fetcher: Fetcher;
  pageFetcher: PageFetcher;
  robots: RobotsPolicy;
  gate: PoliteGate;
  urlRules: UrlRules;
}

/** What the dispatcher runs in a host's slot: a page (its URL id) or a sitemap task. */
type CrawlTask = number | CrawlSitemapTask;

export class CrawlOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CrawlOptionError';
  }
}

export class Crawler {
  constructor(private readonly deps: CrawlerDeps) {}

  async crawl(options: CrawlOptions): Promise<CrawlSummary> {
    const run = await CrawlRun.open(this.deps, options);
    return run.execute();
  }
}

/**
 * One call of `Crawler.crawl`: the state the store gave back, the ordering, the host queues and
 * this run's counters.
 */
class CrawlRun {
  readonly #started = performance.now();
  readonly #now: () => number;
  readonly #ordering: CrawlOrdering;
  readonly #queues: HostQueues;
  readonly #pool: DispatchPool<CrawlTask>;
  readonly #retries = new Map<number, { count: number }>();
  /** Pages this run stored (content pages and redirect hops), for the index to pick up. */
  readonly #storedIds: number[] = [];
  readonly #bufferCap: number;
  #fetchedThisRun = 0;
  /** Pages being fetched or processed count towards it (sitemap tasks in flight are not pages). */
  readonly #limit: PageLimit;
  #errors = 0;
  #overBudget = 0;
  #sinceNewHost = 0;
  #lastReport = 0;
  #stopReason: StopReason | undefined;
  readonly #diagnosis: CrawlDiagnosis;
  readonly #sitemaps: CrawlSitemaps | undefined;
  /** The latest `<lastmod>` a sitemap gave each page, stored with the page when it is fetched. */
  readonly #sitemapLastmod = new Map<number, number>();
  /** The translations a sitemap names for each page (`xhtml:link`), stored with the page when it is fetched. */
  readonly #sitemapAlternates = new Map<number, SitemapAlternate[]>();

  private constructor(
    private readonly deps: CrawlerDeps,
    private readonly options: CrawlOptions,
    private readonly recorder: CrawlRecorder,
    private readonly known: KnownPages,
    private readonly seeds: readonly number[],
    private readonly topic: TopicTracker | undefined,
    private readonly isHotLink: ((url: string, anchor?: string) => boolean) | undefined,
    ordering: CrawlOrdering,
  ) {
    this.#now = options.now ?? Date.now;
    this.#ordering = ordering;
    this.#queues = new HostQueues(deps.gate);
    this.#diagnosis = new CrawlDiagnosis(options.log);
    this.#sitemaps =
      options.sitemaps && !topic
        ? new CrawlSitemaps(deps, {
            ...options.sitemaps,
            seeds: options.seeds,
            isLocal: (url) => options.scope.isLocal(url),
            maxDepth: options.maxDepth,
            concurrency: options.concurrency,
            onListed: (pages, context) => this.#queueListed(pages, context),
            signal: options.signal,
            log: options.log,
          })
        : undefined;
    const concurrency = Math.max(1, options.concurrency);
    this.#bufferCap = Math.max(64, 8 * concurrency);
    this.#limit = new PageLimit(options.maxPages, () => this.#storedCount());
    this.#pool = new DispatchPool<CrawlTask>(deps.gate, concurrency, {
      refill: () => this.#refill(),
      take: (host) => this.#take(host),
      atLimit: () => this.#atLimit(),
      run: (host, task, releaseHost) => (typeof task === 'number' ? this.#processPage(host, task, releaseHost) : this.#readSitemap(host, task, releaseHost)),
      settled: () => this.#report(),
    }, options.signal);
  }

  static async open(deps: CrawlerDeps, options: CrawlOptions): Promise<CrawlRun> {
    const { store, urlRules } = deps;
    const scope = options.scope;
    let topic: TopicTracker | undefined;
    if (options.topic) {
      try {
        topic = await TopicTracker.open(store, options.topic);
      } catch (error) {
        if (error instanceof TopicSettingsError) throw new CrawlOptionError(error.message);
        throw error;
      }
    }
    const recorder = new CrawlRecorder(store, {
      urlRules,
      // Topic crawls decide a page's role from its content; pages without content are outside.
      roleOf: topic ? () => 'global' : (url) => (scope.isLocal(url) ? 'local' : 'global'),
      nearDuplicateThreshold: options.nearDuplicateThreshold,
      sendsCredentialsTo: (url) => deps.fetcher.sendsCredentialsTo(url),
    });
    const ordering = createOrdering(options.ordering, { window: options.rankMassWindow, massFloor: (options.rankMassEpsilon ?? 0.01) / (10 * Math.max(1, options.maxPages)) });
    const hotTerms = [...(options.topicTerms ?? []), ...(options.topic?.terms ?? [])];
    const isHotLink = hotTerms.length > 0 ? hotLinkTest(hotTerms) : undefined;
    // Workers in flight each wait on the fetcher with this signal.
    if (options.signal) setMaxListeners(Math.max(16, 2 * options.concurrency + 8), options.signal);

    const { known, hotPages, hotLinks } = await loadKnownPages(store, recorder, topic ? isHotLink ?? (() => false) : undefined);
    let seeds: number[];
    try {
      seeds = await addSeeds(store, options.seeds, scope, urlRules, known, (options.now ?? Date.now)());
    } catch (error) {
      if (error instanceof SeedError) throw new CrawlOptionError(error.message);
      throw error;
    }
    topic?.resume([...seeds, ...hotPages], hotLinks, known.storedLinks);
    await replayFrontier(store, ordering, seeds, known);
    return new CrawlRun(deps, options, recorder, known, seeds, topic, isHotLink, ordering);
  }

  async execute(): Promise<CrawlSummary> {
    const { options, known } = this;
    try {
      await this.#pool.run();
    } finally {
      this.#sitemaps?.stop();
    }
    if (this.topic) this.topic.saveFrequencies(this.recorder.pending);
    await this.recorder.flush(true);
    // Pages still in host queues (stopped early) stay in the store's frontier for the next run.
    if (options.signal?.aborted) this.#stopReason = 'aborted';
    this.#stopReason ??= this.#storedCount() >= options.maxPages ? 'max-pages' : 'frontier-empty';
    this.#report(true);

    const coverageBound = rankMassLowerBound(
      this.seeds,
      (id) => known.done.has(id),
      (id) => known.storedLinks.get(id)?.follow ?? [],
      (id) => known.storedLinks.get(id)?.degree ?? 0,
    );
    const seconds = (performance.now() - this.#started) / 1000;
    return {
      stoppedBecause: this.#stopReason,
      stored: this.#storedCount(),
      fetchedThisRun: this.#fetchedThisRun,
      storedIds: this.#storedIds,
      byState: known.byState,
      duplicates: known.duplicates,
      rejected: { ...this.recorder.rejected },
      overBudget: this.#overBudget,
      coverageBound,
      topicPages: this.topic ? { local: this.topic.local, global: this.topic.global } : undefined,
      sitemaps: this.#sitemaps?.finish(),
      diagnosis: this.#diagnosis.report(),
      frontier: this.#ordering.waiting + this.#queues.buffered,
      seconds,
      pagesPerSecond: this.#fetchedThisRun / Math.max(1e-3, seconds),
    };
  }

  #storedCount(): number {
    return this.known.done.size;
  }

  /** Stored and in-flight pages reach the page limit: no more starts, and no more sitemaps. */
  #atLimit(): boolean {
    const reached = this.#limit.reached;
    if (reached) this.#sitemaps?.stop();
    return reached;
  }

  /** The task for a slot of `host`: a page, or a sitemap task in turn with its pages. */
  #take(host: string): CrawlTask | undefined {
    const takePage = () => this.#queues.take(host);
    return this.#sitemaps ? this.#sitemaps.take(host, takePage) : takePage();
  }

  #coverageReached(): boolean {
    const c = this.#ordering.coverage();
    const ordering = this.options.ordering;
    return (ordering === 'rankmass' || ordering === 'windowed-rankmass') && c !== undefined && c >= 1 - (this.options.rankMassEpsilon ?? 0.01);
  }

  /**
   * Takes URLs from the ordering into host queues, replaying pages already stored. Looks further
   * ahead while that finds hosts with nothing queued (a breadth-first frontier starts as one
   * site's pages, and one request per host would leave the crawl serial), but not past a window
   * of `bufferCap` URLs without a new host (a single-site crawl keeps the ordering's priorities as
   * fresh as before) nor past 64 × `bufferCap` URLs in all.
   */
  #refill(): void {
    const { options, known } = this;
    const bufferCap = this.#bufferCap;
    const lookAheadCap = 64 * bufferCap;
    const concurrency = Math.max(1, options.concurrency);
    const queues = this.#queues;
    while (this.#stopReason === undefined && (queues.buffered < bufferCap || (queues.hosts < concurrency && this.#sinceNewHost < bufferCap && queues.buffered < lookAheadCap))) {
      // Buffered URLs do not count towards the page limit: the crawl stops starting pages when
      // stored and in-flight pages reach it, so a host that must wait (Crawl-delay) at the end
      // does not hold up the last pages while other hosts could serve them.
      if (this.#limit.reached) return;
      if (this.#coverageReached()) {
        this.#stopReason = 'coverage';
        return;
      }
      const id = this.#ordering.next();
      if (id === undefined) return;
      if (known.done.has(id)) {
        const links = known.storedLinks.get(id);
        this.#ordering.fetched(id, links?.follow ?? [], links?.degree ?? 0);
        continue;
      }
      const host = hostOf(this.deps.store.urlOf(id)!);
      if ((known.hostPages.get(host) ?? 0) >= options.hostPageBudget) {
        this.#overBudget++;
        this.#ordering.failed(id);
        continue;
      }
      known.hostPages.set(host, (known.hostPages.get(host) ?? 0) + 1);
      this.#sinceNewHost = queues.enqueue(host, id) ? 0 : this.#sinceNewHost + 1;
    }
  }

  /**
   * Links to follow from a fetched page, and new ones to the frontier. `pageHot`: a topic crawl
   * found the page in the domain; `pageDistance`: its steps from the last hot page.
   */
  #discover(recorded: Recorded, depth: number, pageHot: boolean, pageDistance: number): number[] {
    const { options, known, topic } = this;
    const follow: number[] = [];
    for (const link of recorded.links) {
      if (!link.follow || !options.scope.isLocal(link.url)) continue;
      const linkHot = this.isHotLink !== undefined && this.isHotLink(link.url, link.anchor);
      if (topic && !topic.follows(link.id, pageDistance, linkHot || pageHot)) continue;
      follow.push(link.id);
      if (known.done.has(link.id) || known.depthOf.has(link.id) || depth + 1 > options.maxDepth) continue;
      known.depthOf.set(link.id, depth + 1);
      // Cho's hot queue: links that name the topic, and links of pages found hot.
      const isHot = linkHot || pageHot;
      const role = topic && !isHot ? 'global' : 'local';
      this.recorder.pending.addToFrontier(link.id, { depth: depth + 1, discoveredAt: this.#now(), role, referrer: recorded.contentId, hot: isHot || undefined });
      this.#ordering.discover({ id: link.id, depth: depth + 1, hot: isHot });
    }
    return follow;
  }

  /** Queues listed pages neither stored nor known at the depth their sitemap was queued with. */
  #queueListed(pages: readonly ListedPage[], context: ListedContext): void {
    const { known } = this;
    const lastmodOf = this.#sitemapLastmod;
    for (const { url, lastmod, alternates } of pages) {
      const id = this.recorder.pending.idFor(url);
      if (lastmod !== undefined) lastmodOf.set(id, Math.max(lastmodOf.get(id) ?? 0, lastmod));
      if (alternates) this.#sitemapAlternates.set(id, alternates);
      if (known.done.has(id) || known.depthOf.has(id)) continue;
      known.depthOf.set(id, context.depth);
      this.recorder.pending.addToFrontier(id, { depth: context.depth, discoveredAt: this.#now(), role: 'local', referrer: context.referrer });
      this.#ordering.discover({ id, depth: context.depth, hot: false });
    }
  }

  /** Runs a sitemap task in its host's slot, then stores the frontier it grew. */
  async #readSitemap(host: string, task: CrawlSitemapTask, releaseHost: () => void): Promise<void> {
    try {
      await this.#sitemaps!.run(task, host);
    } finally {
      releaseHost();
    }
    await this.recorder.flush();
  }

  /** Counts a page in flight while it is processed. */
  async #processPage(host: string, id: number, releaseHost: () => void): Promise<void> {
    const page = this.#limit.start();
    try {
      await this.#process(host, id, releaseHost, page);
    } finally {
      page.end();
    }
  }

  /** Fetches and records one page; `releaseHost` gives the host's politeness slot back (once). */
  async #process(host: string, id: number, releaseHost: () => void, page: PageInFlight): Promise<void> {
    const { deps, options, known, recorder, topic } = this;
    const url = deps.store.urlOf(id)!;
    const depth = known.depthOf.get(id) ?? 0;
    const mayFollow = (target: string): true | string => {
      if (!options.scope.isLocal(target)) return 'out-of-scope';
      const stored = deps.store.idOf(target);
      if (stored !== undefined && known.done.has(stored)) return 'already-fetched';
      // A redirect met at the limit is stored as a link to its target, for the next run.
      return page.mayFollowRedirect() ? true : 'page-limit';
    };
    // The request is over once the body is read: free the host, then let the dispatcher start
    // the next request (to this host too) before this page is parsed.
    const onDownloaded = () => {
      releaseHost();
      return yieldToEventLoop();
    };
    let attempts = this.#retries.get(id);
    if (!attempts) this.#retries.set(id, (attempts = { count: 0 }));
    const slot = await fetchInSlot(deps, url, host, attempts, { mayFollow, onDownloaded, inScope: (target) => options.scope.isLocal(target), signal: options.signal });
    if (slot.kind === 'aborted') return;
    if (slot.kind === 'requeue') {
      this.#queues.enqueue(host, id, true);
      return;
    }
    const outcome = slot.outcome;
    const cause = causeOf(outcome, deps.robots.peek(new URL(url).origin));
    if (cause) this.#diagnosis.add(host, url, cause);
    if (outcome.kind === 'page' && outcome.page.linksDropped) options.log?.(`${url}: kept the first ${outcome.page.links.length} links, dropped ${outcome.page.linksDropped} more (crawler.maxLinksPerPage)`);
    const verdict = topic ? topic.judge(outcome, recorder.pending) : { role: 'local' as const, hot: false };
    const sitemapLastmod = this.#sitemapLastmod.get(id);
    const sitemapAlternates = this.#sitemapAlternates.get(id);
    const recorded = recorder.record(outcome, { id, depth, role: topic ? 'global' : 'local', pageRole: topic ? verdict.role : undefined, sitemapLastmod, sitemapAlternates, now: this.#now() });
    this.#fetchedThisRun++;
    for (const touched of [id, recorded.contentId, ...recorded.hops]) {
      if (known.done.has(touched)) continue;
      known.done.add(touched);
      this.#storedIds.push(touched);
      const state = touched === recorded.contentId ? recorded.state : 'redirect';
      known.byState[state] = (known.byState[state] ?? 0) + 1;
    }
    if (recorded.state === 'error') this.#errors++;
    if (recorded.duplicateOf !== undefined) known.duplicates++;
    const pageDistance = topic ? topic.pageDistance(id, recorded.contentId, verdict.hot) : 0;
    const follow = this.#discover(recorded, depth, verdict.hot, pageDistance);
    this.#sitemaps?.queueNewHosts(recorded.links, depth, recorded.contentId);
    const degree = recorded.links.length;
    known.storedLinks.set(recorded.contentId, { follow, degree });
    if (recorded.state === 'fetched' || recorded.state === 'not-modified' || recorded.state === 'redirect') {
      this.#ordering.fetched(id, follow, degree);
      if (recorded.contentId !== id && !known.done.has(recorded.contentId)) this.#ordering.fetched(recorded.contentId, follow, degree);
    } else this.#ordering.failed(id);
    await recorder.flush();
  }

  #report(force = false): void {
    const { options } = this;
    if (!options.onProgress) return;
    const t = performance.now();
    if (!force && t - this.#lastReport < (options.progressEveryMs ?? 250)) return;
    this.#lastReport = t;
    options.onProgress({
      stored: this.#storedCount(),
      fetchedThisRun: this.#fetchedThisRun,
      pagesPerSecond: this.#fetchedThisRun / Math.max(1e-3, (t - this.#started) / 1000),
      frontier: this.#ordering.waiting + this.#queues.buffered,
      hosts: this.deps.gate.scheduler.hostCount,
      errors: this.#errors,
      inFlight: this.#pool.inFlight,
      coverage: this.#ordering.coverage(),
    });
  }
}

/** Lets timers, I/O and other pages' continuations run (a macrotask, unlike an awaited promise). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
