/**
 * The sitemaps of one crawl, read beside its pages: those of the seeds' origins and the named
 * ones from the start, those of each in-scope host when a page first links to it. Their tasks
 * wait at the crawl's politeness gate like pages (sitemap-reader.ts), and the crawl's dispatcher
 * asks `take` what to run in each slot it gets: a host's sitemap tasks and pages take turns.
 */
import { setMaxListeners } from 'node:events';
import { SitemapReader, type ListedPage, type SitemapBudget, type SitemapDeps, type SitemapReport, type SitemapTask } from './sitemap-discovery.ts';

/** Where the pages a sitemap lists go: their depth, and the page that linked to the sitemap's host. */
export interface ListedContext {
  depth: number;
  referrer?: number;
}

export type CrawlSitemapTask = SitemapTask<ListedContext>;

export interface CrawlSitemapsOptions {
  seeds: readonly string[];
  named?: readonly string[];
  budget?: Partial<SitemapBudget>;
  isLocal: (url: string) => boolean;
  maxDepth: number;
  concurrency: number;
  /** The in-scope pages of each sitemap file, as it is read. */
  onListed: (pages: readonly ListedPage[], context: ListedContext) => void;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

export class CrawlSitemaps {
  readonly #reader: SitemapReader<ListedContext>;
  readonly #maxDepth: number;
  readonly #isLocal: (url: string) => boolean;
  /** Origins whose sitemaps were queued: the seeds' at the start, then each in-scope host when first linked. */
  readonly #origins = new Set<string>();
  /** Hosts whose last slot went to a sitemap task: their next goes to a page, when one waits. */
  readonly #hadTurn = new Set<string>();
  /** Stops the reading when the crawl stops (page limit, abort, the end). */
  readonly #stop = new AbortController();

  constructor(deps: SitemapDeps, options: CrawlSitemapsOptions) {
    this.#maxDepth = options.maxDepth;
    this.#isLocal = options.isLocal;
    const signal = this.#stop.signal;
    // Each sitemap read in flight listens on it.
    setMaxListeners(Math.max(16, 2 * options.concurrency + 8), signal);
    options.signal?.addEventListener('abort', () => this.#stop.abort(), { once: true, signal });
    this.#reader = new SitemapReader<ListedContext>(deps, {
      inScope: options.isLocal,
      budget: options.budget,
      // Half the slots at most: sitemaps slow on many hosts leave the other half to pages.
      maxActive: Math.max(1, Math.floor(options.concurrency / 2)),
      signal,
      log: options.log,
      onPages: options.onListed,
    });
    for (const seed of options.seeds) {
      const origin = originOf(seed);
      if (origin) this.#origins.add(origin);
    }
    if (options.maxDepth >= 1) {
      for (const url of options.named ?? []) this.#reader.addNamed(url, { depth: 1 });
      for (const origin of this.#origins) this.#reader.addOrigin(origin, { depth: 1 });
    }
  }

  /**
   * The task for a slot of `host`: a sitemap task when the host's last slot went to a page (or
   * no page waits), else the host's next page from `takePage`. Robots.txt first, then a page,
   * then a sitemap file…: the host's pages are fetched while its sitemaps are read.
   */
  take(host: string, takePage: () => number | undefined): number | CrawlSitemapTask | undefined {
    if (this.#reader.has(host) && !this.#hadTurn.has(host)) {
      this.#hadTurn.add(host);
      return this.#reader.take(host);
    }
    this.#hadTurn.delete(host);
    return takePage() ?? this.#reader.take(host);
  }

  /**
   * Queues the sitemaps of in-scope hosts a page at `depth` links to first (robots.txt `Sitemap:`
   * lines, else /sitemap.xml); the pages they list go one step further than the linked page (as
   * the seeds' sitemap pages are one step from the seeds). Each task is a request waiting at
   * the gate, so the crawl cannot end before they are read.
   */
  queueNewHosts(links: ReadonlyArray<{ url: string; follow: boolean }>, depth: number, referrer: number): void {
    const listedDepth = depth + 2;
    if (listedDepth > this.#maxDepth || this.#stop.signal.aborted) return;
    for (const link of links) {
      const origin = originOf(link.url);
      if (!link.follow || !origin || this.#origins.has(origin) || !this.#isLocal(link.url)) continue;
      this.#origins.add(origin);
      this.#reader.addOrigin(origin, { depth: listedDepth, referrer });
    }
  }

  /** Runs a task in its host's slot. */
  run(task: CrawlSitemapTask, host: string): Promise<void> {
    return this.#reader.run(task, host);
  }

  /** No more sitemap reading: files being read give up, queued ones stay unread. */
  stop(): void {
    this.#stop.abort();
  }

  /** What the sitemaps gave; call once the crawl is over. */
  finish(): SitemapReport {
    this.stop();
    return this.#reader.finish();
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
