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
 * taken ahead, dispatch-pool.ts starts pages as the gate allows, topic-tracker.ts judges pages of
 * a topic crawl; a `CrawlRun` here ties them together for one call of `Crawler.crawl`.
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
import { fetchInSlot } from './polite-page.ts';
import type { PoliteGate } from './politeness.ts';
import type { RobotsPolicy } from './robots.ts';
import type { Scope } from './scope.ts';
import { discoverFromSitemaps, type SitemapReport } from './sitemap-discovery.ts';
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
   * Read sitemaps first (sitemap-discovery.ts): those of the seeds' origins, and `named` ones;
   * listed in-scope pages join the frontier. Not for topic crawls (the topic decides what is local).
   */
  sitemaps?: { named?: readonly string[] };
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
  readonly #pool: DispatchPool;
  readonly #retries = new Map<number, { count: number }>();
  /** Pages this run stored (content pages and redirect hops), for the index to pick up. */
  readonly #storedIds: number[] = [];
  readonly #bufferCap: number;
  #fetchedThisRun = 0;
  #errors = 0;
  #overBudget = 0;
  #sinceNewHost = 0;
  #lastReport = 0;
  #stopReason: StopReason | undefined;
  readonly #diagnosis: CrawlDiagnosis;
  /** Origins whose sitemaps were read (or are being read): the seeds' at the start, then each in-scope host when first linked. */
  readonly #sitemapOrigins = new Set<string>();

  private constructor(
    private readonly deps: CrawlerDeps,
    private readonly options: CrawlOptions,
    private readonly recorder: CrawlRecorder,
    private readonly known: KnownPages,
    private readonly seeds: readonly number[],
    private readonly topic: TopicTracker | undefined,
    private readonly isHotLink: ((url: string, anchor?: string) => boolean) | undefined,
    ordering: CrawlOrdering,
    private readonly sitemaps: SitemapFindings | undefined,
  ) {
    this.#now = options.now ?? Date.now;
    this.#ordering = ordering;
    this.#queues = new HostQueues(deps.gate);
    this.#diagnosis = new CrawlDiagnosis(options.log);
    for (const seed of options.seeds) {
      const origin = originOf(seed);
      if (origin) this.#sitemapOrigins.add(origin);
    }
    const concurrency = Math.max(1, options.concurrency);
    this.#bufferCap = Math.max(64, 8 * concurrency);
    this.#pool = new DispatchPool(deps.gate, concurrency, {
      refill: () => this.#refill(),
      take: (host) => this.#queues.take(host),
      atLimit: (inFlight) => this.#storedCount() + inFlight >= options.maxPages,
      run: (host, id, releaseHost) => this.#process(host, id, releaseHost),
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
    const sitemaps = options.sitemaps && !topic && options.maxDepth >= 1 ? await queueSitemapPages(deps, options, known) : undefined;
    await replayFrontier(store, ordering, seeds, known);
    return new CrawlRun(deps, options, recorder, known, seeds, topic, isHotLink, ordering, sitemaps);
  }

  async execute(): Promise<CrawlSummary> {
    const { options, known } = this;
    await this.#pool.run();
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
      sitemaps: this.sitemaps?.report,
      diagnosis: this.#diagnosis.report(),
      frontier: this.#ordering.waiting + this.#queues.buffered,
      seconds,
      pagesPerSecond: this.#fetchedThisRun / Math.max(1e-3, seconds),
    };
  }

  #storedCount(): number {
    return this.known.done.size;
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
      if (this.#storedCount() + this.#pool.inFlight >= options.maxPages) return;
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

  /**
   * Reads the sitemaps of in-scope hosts this page links to first (robots.txt `Sitemap:` lines,
   * else /sitemap.xml) and queues the pages they list one step further than the linked page
   * (as the seeds' sitemap pages are one step from the seeds).
   */
  async #readSitemapsOfNewHosts(recorded: Recorded, depth: number): Promise<void> {
    const { deps, options, known, sitemaps } = this;
    const listedDepth = depth + 2;
    if (!sitemaps || listedDepth > options.maxDepth) return;
    const origins: string[] = [];
    for (const link of recorded.links) {
      const origin = originOf(link.url);
      if (!link.follow || !origin || this.#sitemapOrigins.has(origin) || !options.scope.isLocal(link.url)) continue;
      this.#sitemapOrigins.add(origin);
      origins.push(origin);
    }
    if (origins.length === 0) return;
    const found = await discoverFromSitemaps(deps, { origins, inScope: (url) => options.scope.isLocal(url), signal: options.signal, log: options.log });
    const report = sitemaps.report;
    report.files += found.report.files;
    report.listed += found.report.listed;
    report.inScope += found.report.inScope;
    report.skipped.push(...found.report.skipped.slice(0, Math.max(0, 20 - report.skipped.length)));
    report.cut.push(...found.report.cut);
    for (const [url, alternates] of found.alternates) sitemaps.alternatesOf.set(url, alternates);
    for (const [url, lastmod] of found.pages) {
      const id = this.recorder.pending.idFor(url);
      if (lastmod !== undefined) sitemaps.lastmodOf.set(id, lastmod);
      if (known.done.has(id) || known.depthOf.has(id)) continue;
      known.depthOf.set(id, listedDepth);
      this.recorder.pending.addToFrontier(id, { depth: listedDepth, discoveredAt: this.#now(), role: 'local', referrer: recorded.contentId });
      this.#ordering.discover({ id, depth: listedDepth, hot: false });
    }
  }

  /** Fetches and records one page; `releaseHost` gives the host's politeness slot back (once). */
  async #process(host: string, id: number, releaseHost: () => void): Promise<void> {
    const { deps, options, known, recorder, topic } = this;
    const url = deps.store.urlOf(id)!;
    const depth = known.depthOf.get(id) ?? 0;
    const mayFollow = (target: string): true | string => {
      if (!options.scope.isLocal(target)) return 'out-of-scope';
      const stored = deps.store.idOf(target);
      return stored !== undefined && known.done.has(stored) ? 'already-fetched' : true;
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
    const verdict = topic ? topic.judge(outcome, recorder.pending) : { role: 'local' as const, hot: false };
    const sitemapLastmod = this.sitemaps?.lastmodOf.get(id);
    const sitemapAlternates = this.sitemaps?.alternatesOf.get(url);
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
    // Inside the task, so the crawl cannot end before the pages those sitemaps list are queued.
    await this.#readSitemapsOfNewHosts(recorded, depth);
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

/**
 * Reads the sitemaps of the seeds' origins (and the named ones) and queues the listed in-scope
 * pages not known yet, one step from the seeds; their `<lastmod>` by page id.
 */
/** What the sitemaps say of the pages they list: `<lastmod>` by page id, translations by URL. */
interface SitemapFindings {
  report: SitemapReport;
  lastmodOf: Map<number, number>;
  alternatesOf: Map<string, SitemapAlternate[]>;
}

async function queueSitemapPages(deps: CrawlerDeps, options: CrawlOptions, known: KnownPages): Promise<SitemapFindings> {
  const origins = options.seeds.flatMap((seed) => originOf(seed) ?? []);
  const found = await discoverFromSitemaps(deps, { origins, named: options.sitemaps?.named, inScope: (url) => options.scope.isLocal(url), signal: options.signal, log: options.log });
  const batch = deps.store.batch();
  const now = (options.now ?? Date.now)();
  const lastmodOf = new Map<number, number>();
  for (const [url, lastmod] of found.pages) {
    const id = batch.idFor(url);
    if (lastmod !== undefined) lastmodOf.set(id, lastmod);
    if (known.done.has(id) || known.depthOf.has(id)) continue;
    known.depthOf.set(id, 1);
    batch.addToFrontier(id, { depth: 1, discoveredAt: now, role: 'local' });
  }
  await batch.commit();
  return { report: found.report, lastmodOf, alternatesOf: new Map(found.alternates) };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Lets timers, I/O and other pages' continuations run (a macrotask, unlike an awaited promise). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
