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
 * Topic crawls (ALGORITHMS.md §5, Cho's focused crawling; `options.topic`): a fetched page is
 * local when its similarity to the topic passes the threshold and global otherwise (kept for its
 * links), and a link is followed when it is inside the scope and within `maxDistance` steps of
 * the last hot page. The scope is then where the crawler may go (`regex:^https?://` for the
 * whole web), the topic what is local.
 */
import { setMaxListeners } from 'node:events';
import type { CrawlStore, PageRole } from '../indexer/store/crawl-store.ts';
import { CrawlRecorder, hostOf, type Recorded } from './crawl-recorder.ts';
import { createOrdering, rankMassLowerBound, type CrawlOrdering, type OrderingName } from './ordering.ts';
import type { PageFetcher, PageOutcome } from './page-fetch.ts';
import { fetchInSlot } from './polite-page.ts';
import type { PoliteGate } from './politeness.ts';
import type { RobotsPolicy } from './robots.ts';
import type { Scope } from './scope.ts';
import { distancesFromHotPages, DocumentFrequencies, hotLinkTest, linkDistance, TopicScope, TopicSettingsError, type DistanceLink, type DocumentFrequencySnapshot, type TopicSettings } from './topic.ts';
import { normalizeUrl, type UrlRules } from './url.ts';

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
  frontier: number;
  seconds: number;
  pagesPerSecond: number;
}

export interface CrawlerDeps {
  store: CrawlStore;
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

/** Meta key of the topic crawl's idf estimate (document frequencies), for resuming. */
export const TOPIC_FREQUENCIES_META = 'topic-document-frequencies';
/** Topic similarity reads the first this many characters of a page (a huge page's opening says what it is about). */
const TOPIC_TEXT_LIMIT = 256 * 1024;
/** Topic crawls store their idf estimate every this many scored pages (and at the end). */
const TOPIC_SNAPSHOT_EVERY = 500;

export class Crawler {
  constructor(private readonly deps: CrawlerDeps) {}

  async crawl(options: CrawlOptions): Promise<CrawlSummary> {
    const { store, pageFetcher, robots, gate, urlRules } = this.deps;
    const now = options.now ?? Date.now;
    const started = performance.now();
    const scope = options.scope;
    let topicScope: TopicScope | undefined;
    if (options.topic) {
      const snapshot = await store.getMeta<DocumentFrequencySnapshot>(TOPIC_FREQUENCIES_META);
      try {
        topicScope = new TopicScope(options.topic, snapshot ? DocumentFrequencies.fromSnapshot(snapshot) : undefined);
      } catch (error) {
        if (error instanceof TopicSettingsError) throw new CrawlOptionError(error.message);
        throw error;
      }
    }
    const recorder = new CrawlRecorder(store, {
      urlRules,
      // Topic crawls decide a page's role from its content; pages without content are outside.
      roleOf: topicScope ? () => 'global' : (url) => (scope.isLocal(url) ? 'local' : 'global'),
      nearDuplicateThreshold: options.nearDuplicateThreshold,
    });
    const ordering: CrawlOrdering = createOrdering(options.ordering, { window: options.rankMassWindow, massFloor: (options.rankMassEpsilon ?? 0.01) / (10 * Math.max(1, options.maxPages)) });
    const hotTerms = [...(options.topicTerms ?? []), ...(options.topic?.terms ?? [])];
    const isHotLink = hotTerms.length > 0 ? hotLinkTest(hotTerms) : undefined;
    // Workers in flight each wait on the fetcher with this signal.
    if (options.signal) setMaxListeners(Math.max(16, 2 * options.concurrency + 8), options.signal);

    // What the store already knows.
    const done = new Set<number>();
    const byState: Record<string, number> = {};
    const depthOf = new Map<number, number>();
    const hostPages = new Map<string, number>();
    const storedLinks = new Map<number, { follow: number[]; degree: number }>();
    /** Topic crawls: steps from the last hot page (0 for hot pages and seeds). */
    const distanceOf = new Map<number, number>();
    const hotPages: number[] = [];
    const storedHotLinks = new Map<number, DistanceLink[]>();
    let duplicates = 0;
    for await (const [id, page] of store.pages()) {
      done.add(id);
      if (topicScope && page.role === 'local' && page.state === 'fetched') hotPages.push(id);
      depthOf.set(id, page.depth);
      byState[page.state] = (byState[page.state] ?? 0) + 1;
      hostPages.set(page.host, (hostPages.get(page.host) ?? 0) + 1);
      if (page.duplicateOf === undefined) recorder.knowPage(id, page);
      if (page.duplicateOf !== undefined) duplicates++;
    }
    for await (const [id, links] of store.allLinks()) {
      const followable = links.filter((l) => !l.nofollow && isCrawlable(store.urlOf(l.to)));
      storedLinks.set(id, { follow: followable.map((l) => l.to), degree: links.length });
      if (topicScope) storedHotLinks.set(id, followable.map((l) => ({ to: l.to, hot: isHotLink!(store.urlOf(l.to)!, l.anchor) })));
    }

    const seeds: number[] = [];
    const seedBatch = store.batch();
    for (const seed of options.seeds) {
      const check = normalizeUrl(seed, urlRules);
      if (!check.ok) throw new CrawlOptionError(`seed ${seed} is refused by the URL rules: ${check.reason}`);
      if (!scope.isLocal(check.url)) throw new CrawlOptionError(`seed ${check.url} is outside the scope`);
      const id = seedBatch.idFor(check.url);
      seeds.push(id);
      if (!done.has(id)) seedBatch.addToFrontier(id, { depth: 0, discoveredAt: now(), role: 'local' });
      depthOf.set(id, 0);
    }
    await seedBatch.commit();
    if (seeds.length === 0 && done.size === 0) throw new CrawlOptionError('no seeds: give at least one seed URL');
    const seedSet = new Set(seeds);
    if (topicScope) {
      // Resuming: the distances the earlier runs saw, and the links they followed, rebuilt from
      // the stored pages (local ones are the hot pages) and their links.
      const maxDistance = topicScope.maxDistance;
      for (const [id, distance] of distancesFromHotPages([...seeds, ...hotPages], (id) => storedHotLinks.get(id), maxDistance)) distanceOf.set(id, distance);
      for (const [id, links] of storedLinks) {
        const from = distanceOf.get(id);
        const candidates = storedHotLinks.get(id) ?? [];
        links.follow = from === undefined ? [] : candidates.filter((l) => linkDistance(from, l.hot) <= maxDistance).map((l) => l.to);
      }
      storedHotLinks.clear();
    }
    for (const id of seeds) ordering.discover({ id, depth: 0, seed: true, hot: true });

    const frontierEntries: Array<[number, number, boolean]> = [];
    for await (const [id, entry] of store.frontier()) {
      if (seedSet.has(id) || done.has(id)) continue;
      depthOf.set(id, entry.depth);
      frontierEntries.push([id, entry.depth, entry.hot === true]);
    }
    // Fetched pages are discovered too: when the ordering reaches one, its stored links are
    // replayed instead of fetched, which rebuilds the ordering's state in its own order.
    for (const id of done) if (!seedSet.has(id)) frontierEntries.push([id, depthOf.get(id) ?? 0, false]);
    frontierEntries.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    for (const [id, depth, hot] of frontierEntries) ordering.discover({ id, depth, hot });

    /** URLs taken from the ordering, by host; a host is here only while it has URLs queued. */
    const hostQueues = new Map<string, number[]>();
    const retries = new Map<number, { count: number }>();
    let buffered = 0;
    let inFlight = 0;
    /** Pages this run stored (content pages and redirect hops), for the index to pick up. */
    const storedIds: number[] = [];
    let fetchedThisRun = 0;
    let topicLocal = 0;
    let topicGlobal = 0;
    let scoredSinceSnapshot = 0;
    let errors = 0;
    let overBudget = 0;
    let stopReason: StopReason | undefined;
    const concurrency = Math.max(1, options.concurrency);
    const bufferCap = Math.max(64, 8 * concurrency);
    // Look further ahead while that finds hosts with nothing queued (a breadth-first frontier
    // starts as one site's pages, and one request per host would leave the crawl serial), but
    // not past a window of `bufferCap` URLs without a new host (a single-site crawl keeps the
    // ordering's priorities as fresh as before) nor past `lookAheadCap` URLs in all.
    const lookAheadCap = 64 * bufferCap;
    let sinceNewHost = 0;
    const epsilon = options.rankMassEpsilon ?? 0.01;

    const storedCount = () => done.size;
    const coverageReached = () => {
      const c = ordering.coverage();
      return (options.ordering === 'rankmass' || options.ordering === 'windowed-rankmass') && c !== undefined && c >= 1 - epsilon;
    };

    /** Queues a URL on its host (at the front: a page put back); whether the host had none queued. */
    const enqueue = (host: string, id: number, atFront = false): boolean => {
      const queue = hostQueues.get(host);
      if (!queue) hostQueues.set(host, [id]);
      else if (atFront) queue.unshift(id);
      else queue.push(id);
      buffered++;
      gate.add(host);
      return queue === undefined;
    };

    /** Takes URLs from the ordering into host queues, replaying pages already stored. */
    const refill = () => {
      while (stopReason === undefined && (buffered < bufferCap || (hostQueues.size < concurrency && sinceNewHost < bufferCap && buffered < lookAheadCap))) {
        // Buffered URLs do not count towards the page limit: the crawl stops starting pages when
        // stored and in-flight pages reach it, so a host that must wait (Crawl-delay) at the end
        // does not hold up the last pages while other hosts could serve them.
        if (storedCount() + inFlight >= options.maxPages) return;
        if (coverageReached()) {
          stopReason = 'coverage';
          return;
        }
        const id = ordering.next();
        if (id === undefined) return;
        if (done.has(id)) {
          const links = storedLinks.get(id);
          ordering.fetched(id, links?.follow ?? [], links?.degree ?? 0);
          continue;
        }
        const url = store.urlOf(id)!;
        const host = hostOf(url);
        if ((hostPages.get(host) ?? 0) >= options.hostPageBudget) {
          overBudget++;
          ordering.failed(id);
          continue;
        }
        hostPages.set(host, (hostPages.get(host) ?? 0) + 1);
        sinceNewHost = enqueue(host, id) ? 0 : sinceNewHost + 1;
      }
    };

    /**
     * Links to follow from a fetched page, and new ones to the frontier. `pageHot`: a topic
     * crawl found the page in the domain; `pageDistance`: its steps from the last hot page.
     */
    const discover = (recorded: Recorded, depth: number, pageHot: boolean, pageDistance: number) => {
      const follow: number[] = [];
      for (const link of recorded.links) {
        if (!link.follow || !scope.isLocal(link.url)) continue;
        const linkHot = isHotLink !== undefined && isHotLink(link.url, link.anchor);
        if (topicScope) {
          const distance = linkDistance(pageDistance, linkHot || pageHot);
          if (distance > topicScope.maxDistance) continue;
          const known = distanceOf.get(link.id);
          if (known === undefined || distance < known) distanceOf.set(link.id, distance);
        }
        follow.push(link.id);
        if (done.has(link.id) || depthOf.has(link.id) || depth + 1 > options.maxDepth) continue;
        depthOf.set(link.id, depth + 1);
        // Cho's hot queue: links that name the topic, and links of pages found hot.
        const isHot = linkHot || pageHot;
        const role = topicScope && !isHot ? 'global' : 'local';
        recorder.pending.addToFrontier(link.id, { depth: depth + 1, discoveredAt: now(), role, referrer: recorded.contentId, hot: isHot || undefined });
        ordering.discover({ id: link.id, depth: depth + 1, hot: isHot });
      }
      return follow;
    };

    /** Topic crawls: scores a fetched page; its role and whether it is hot. */
    const judge = (outcome: PageOutcome): { role: PageRole; hot: boolean } => {
      if (!topicScope) return { role: 'local', hot: false };
      if (outcome.kind !== 'page') return { role: 'global', hot: false };
      const text = `${outcome.page.title}\n${outcome.page.text}`;
      const hot = topicScope.isInDomain(topicScope.score(text.length > TOPIC_TEXT_LIMIT ? text.slice(0, TOPIC_TEXT_LIMIT) : text));
      if (hot) topicLocal++;
      else topicGlobal++;
      if (++scoredSinceSnapshot >= TOPIC_SNAPSHOT_EVERY) saveFrequencies();
      return { role: hot ? 'local' : 'global', hot };
    };
    const saveFrequencies = () => {
      if (!topicScope) return;
      scoredSinceSnapshot = 0;
      recorder.pending.putMeta(TOPIC_FREQUENCIES_META, topicScope.frequencies.snapshot());
    };

    /** Fetches and records one page; `releaseHost` gives the host's politeness slot back (once). */
    const process = async (id: number, releaseHost: () => void): Promise<void> => {
      const url = store.urlOf(id)!;
      const host = hostOf(url);
      const depth = depthOf.get(id) ?? 0;
      const mayFollow = (target: string): true | string => {
        if (!scope.isLocal(target)) return 'out-of-scope';
        const known = store.idOf(target);
        return known !== undefined && done.has(known) ? 'already-fetched' : true;
      };
      // The request is over once the body is read: free the host, then let the dispatcher start
      // the next request (to this host too) before this page is parsed.
      const onDownloaded = () => {
        releaseHost();
        return yieldToEventLoop();
      };
      let attempts = retries.get(id);
      if (!attempts) retries.set(id, (attempts = { count: 0 }));
      const slot = await fetchInSlot({ robots, gate, pageFetcher }, url, host, attempts, { mayFollow, onDownloaded, signal: options.signal });
      if (slot.kind === 'aborted') return;
      if (slot.kind === 'requeue') {
        enqueue(host, id, true);
        return;
      }
      const outcome = slot.outcome;
      const verdict = judge(outcome);
      const recorded = recorder.record(outcome, { id, depth, role: topicScope ? 'global' : 'local', pageRole: topicScope ? verdict.role : undefined, now: now() });
      fetchedThisRun++;
      for (const touched of [id, recorded.contentId, ...recorded.hops]) {
        if (done.has(touched)) continue;
        done.add(touched);
        storedIds.push(touched);
        const state = touched === recorded.contentId ? recorded.state : 'redirect';
        byState[state] = (byState[state] ?? 0) + 1;
      }
      if (recorded.state === 'error') errors++;
      if (recorded.duplicateOf !== undefined) duplicates++;
      const pageDistance = verdict.hot ? 0 : (distanceOf.get(id) ?? 0);
      if (topicScope) distanceOf.set(recorded.contentId, pageDistance);
      const follow = discover(recorded, depth, verdict.hot, pageDistance);
      const degree = recorded.links.length;
      storedLinks.set(recorded.contentId, { follow, degree });
      if (recorded.state === 'fetched' || recorded.state === 'not-modified' || recorded.state === 'redirect') {
        ordering.fetched(id, follow, degree);
        if (recorded.contentId !== id && !done.has(recorded.contentId)) ordering.fetched(recorded.contentId, follow, degree);
      } else ordering.failed(id);
      await recorder.flush();
    };

    let lastReport = 0;
    const report = (force = false) => {
      if (!options.onProgress) return;
      const t = performance.now();
      if (!force && t - lastReport < (options.progressEveryMs ?? 250)) return;
      lastReport = t;
      options.onProgress({
        stored: storedCount(),
        fetchedThisRun,
        pagesPerSecond: fetchedThisRun / Math.max(1e-3, (t - started) / 1000),
        frontier: ordering.waiting + buffered,
        hosts: gate.scheduler.hostCount,
        errors,
        inFlight,
        coverage: ordering.coverage(),
      });
    };

    // One dispatcher waits on the gate (a single waiter: no herd of workers woken by every
    // change) and starts pages while fewer than `concurrency` are being fetched or processed.
    const running = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    let onPageDone: (() => void) | undefined;
    const pageDone = () => new Promise<void>((resolve) => (onPageDone = resolve));
    const start = (host: string, id: number) => {
      let released = false;
      const releaseHost = () => {
        if (released) return;
        released = true;
        gate.release(host);
      };
      buffered--;
      inFlight++;
      const task = process(id, releaseHost)
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => {
          inFlight--;
          refill();
          releaseHost();
          report();
          running.delete(task);
          const wake = onPageDone;
          onPageDone = undefined;
          wake?.();
        });
      running.add(task);
    };
    const dispatch = async () => {
      while (failure === undefined) {
        refill();
        if (storedCount() + inFlight >= options.maxPages) {
          // The limit is reached unless a page in flight is put back (429/503): wait and see.
          if (inFlight === 0) return;
          await pageDone();
          continue;
        }
        if (inFlight >= concurrency) {
          await pageDone();
          continue;
        }
        const host = await gate.acquireUnlessAborted(options.signal);
        if (host === undefined) return;
        if (host === null) {
          // Nothing waiting and no request out; pages still being parsed may bring new links.
          if (inFlight === 0) return;
          await pageDone();
          continue;
        }
        const queue = hostQueues.get(host);
        const id = queue?.shift();
        if (id === undefined) {
          gate.release(host);
          continue;
        }
        if (queue!.length === 0) hostQueues.delete(host);
        start(host, id);
      }
    };

    refill();
    try {
      await dispatch();
    } finally {
      while (running.size > 0) await Promise.all(running);
    }
    if (failure) throw failure.error;
    saveFrequencies();
    await recorder.flush(true);
    // Pages still in host queues (stopped early) stay in the store's frontier for the next run.
    if (options.signal?.aborted) stopReason = 'aborted';
    stopReason ??= storedCount() >= options.maxPages ? 'max-pages' : 'frontier-empty';
    report(true);

    const isStored = (id: number) => done.has(id);
    const coverageBound = rankMassLowerBound(
      seeds,
      isStored,
      (id) => storedLinks.get(id)?.follow ?? [],
      (id) => storedLinks.get(id)?.degree ?? 0,
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      stoppedBecause: stopReason,
      stored: storedCount(),
      fetchedThisRun,
      storedIds,
      byState,
      duplicates,
      rejected: { ...recorder.rejected },
      overBudget,
      coverageBound,
      topicPages: topicScope ? { local: topicLocal, global: topicGlobal } : undefined,
      frontier: ordering.waiting + buffered,
      seconds,
      pagesPerSecond: fetchedThisRun / Math.max(1e-3, seconds),
    };
  }
}

/** Lets timers, I/O and other pages' continuations run (a macrotask, unlike an awaited promise). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function isCrawlable(url: string | undefined): boolean {
  return url !== undefined && /^https?:/.test(url);
}
