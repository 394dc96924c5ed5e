/**
 * Reading sitemaps as tasks of their hosts, for whoever hands out the hosts' politeness slots:
 * the crawl loop runs them beside its pages (one dispatcher takes every slot the gate gives and
 * runs a page or a sitemap task of that host), `discoverFromSitemaps` runs them alone.
 *
 * A task is an origin's robots.txt `Sitemap:` lines (else `/sitemap.xml`), or one sitemap file;
 * sitemap indexes queue their children. Every queued task is one request waiting at the gate
 * (`gate.add`), so the gate's count of waiting requests stays the count of work to hand out.
 *
 * Each task carries the context its origin or named sitemap was queued with (the crawl's depth
 * and referrer for the pages found); the pages each file lists in scope go to `onPages` as soon as
 * the file is read.
 *
 * Budgets (`SitemapBudget`): files per host, seconds per file (download and parsing together: a
 * file that inflates to 50 MB of white space must not hold its host for minutes) and seconds per
 * host over all its files. What is over budget is skipped, logged and reported.
 */
import type { Readable } from 'node:stream';
import { hostOf } from './crawl-recorder.ts';
import type { Fetcher } from './fetcher.ts';
import type { PoliteGate } from './politeness.ts';
import type { RobotsPolicy } from './robots.ts';
import { parseSitemap, SitemapFormatError, type SitemapAlternate, type SitemapEntry, type SitemapParse } from './sitemap-parse.ts';
import { normalizeUrl, type UrlRules } from './url.ts';

export interface SitemapDeps {
  fetcher: Fetcher;
  robots: RobotsPolicy;
  gate: PoliteGate;
  urlRules: UrlRules;
}

/** How much reading sitemaps may cost (`crawler.sitemapBudget` in the settings). */
export interface SitemapBudget {
  /** Sitemap files read per host at most (indexes can list many). */
  filesPerHost: number;
  /** Seconds one file may take, download and parsing together. */
  fileSeconds: number;
  /** Seconds all the files of one host may take together. */
  hostSeconds: number;
}

export const SITEMAP_BUDGET_DEFAULTS: SitemapBudget = { filesPerHost: 1000, fileSeconds: 60, hostSeconds: 600 };

export interface SitemapReport {
  /** Sitemap files read (indexes included). */
  files: number;
  /** Page URLs listed, and of them in scope (kept). */
  listed: number;
  inScope: number;
  /** Sitemaps skipped, with why (the first 20), and how many in all. */
  skipped: Array<{ url: string; reason: string }>;
  skippedCount: number;
  /** Files cut at a protocol limit. */
  cut: Array<{ url: string; reason: string }>;
  /** Tasks (robots.txt lookups and files) still queued when the reading stopped (the crawl ended first). */
  unread: number;
}

/** A page a sitemap lists in scope: its normalised URL and `<lastmod>` (ms), when given. */
export interface ListedPage {
  url: string;
  lastmod: number | undefined;
  /** The page's translations the sitemap names (`xhtml:link`), when it names any. */
  alternates?: SitemapAlternate[];
}

export interface SitemapReaderOptions<C> {
  /** Listed pages kept (the crawl's scope). */
  inScope: (url: string) => boolean;
  budget?: Partial<SitemapBudget>;
  /**
   * Tasks at the gate or running at most (default: no limit); the others wait their turn, so
   * slow sitemaps on many hosts cannot take every slot of a crawl from its pages.
   */
  maxActive?: number;
  /** The in-scope pages of each file read, with the context its origin was queued with. */
  onPages: (pages: ListedPage[], context: C) => void | Promise<void>;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

/** A task of a host: read an origin's robots.txt sitemap lines, or read one sitemap. */
export type SitemapTask<C> = { kind: 'origin'; origin: string; context: C } | { kind: 'sitemap'; url: string; named: boolean; context: C };

const SKIPPED_KEPT = 20;

export class SitemapReader<C> {
  readonly report: SitemapReport = { files: 0, listed: 0, inScope: 0, skipped: [], skippedCount: 0, cut: [], unread: 0 };
  readonly #budget: SitemapBudget;
  readonly #queues = new Map<string, Array<SitemapTask<C>>>();
  /** Tasks not yet at the gate (over `maxActive`), first come first served from `#waitingHead`. */
  #waiting: Array<SitemapTask<C>> = [];
  #waitingHead = 0;
  /** Tasks at the gate or running. */
  #active = 0;
  readonly #maxActive: number;
  readonly #seen = new Set<string>();
  /** In-scope URLs listed so far (counted once however many files list them). */
  readonly #listed = new Set<string>();
  readonly #filesOf = new Map<string, number>();
  readonly #msOf = new Map<string, number>();
  #queued = 0;

  constructor(
    private readonly deps: SitemapDeps,
    private readonly options: SitemapReaderOptions<C>,
  ) {
    this.#budget = { ...SITEMAP_BUDGET_DEFAULTS, ...options.budget };
    this.#maxActive = Math.max(1, options.maxActive ?? Infinity);
  }

  /** Tasks not run yet: at the gate (each one a request waiting there) or waiting their turn. */
  get queued(): number {
    return this.#queued + this.#waiting.length - this.#waitingHead;
  }

  /** Queues the reading of an origin's sitemaps: robots.txt `Sitemap:` lines, else /sitemap.xml. */
  addOrigin(origin: string, context: C): void {
    this.#enqueue({ kind: 'origin', origin, context });
  }

  /** Queues a sitemap the settings name (any host). */
  addNamed(url: string, context: C): void {
    this.#offer(url, undefined, context, true);
  }

  /** Whether a task of this host is queued. */
  has(host: string): boolean {
    return this.#queues.has(host);
  }

  /** The next task of a host the gate handed out (its slot is the caller's until the task ends). */
  take(host: string): SitemapTask<C> | undefined {
    const queue = this.#queues.get(host);
    const task = queue?.shift();
    if (task === undefined) return undefined;
    if (queue!.length === 0) this.#queues.delete(host);
    this.#queued--;
    return task;
  }

  /** Runs a task taken for `host`, inside that host's slot; never throws for what a site does. */
  async run(task: SitemapTask<C>, host: string): Promise<void> {
    try {
      await this.#run(task, host);
    } finally {
      // Before the caller gives the slot back: a waiting task is at the gate before it can go idle.
      this.#active--;
      this.#admit();
    }
  }

  async #run(task: SitemapTask<C>, host: string): Promise<void> {
    if (task.kind === 'origin') return this.#readRobots(task, host);
    const spent = this.#msOf.get(host) ?? 0;
    const left = this.#budget.hostSeconds * 1000 - spent;
    if (left <= 0) return this.#skip(task.url, `the sitemaps of ${host} used their time budget (${this.#budget.hostSeconds} s)`);
    const started = performance.now();
    try {
      await this.#read(task, host, Math.min(this.#budget.fileSeconds * 1000, left));
    } finally {
      this.#msOf.set(host, spent + performance.now() - started);
    }
  }

  /** Counts the tasks left unread (the caller stopped before them) in the report. */
  finish(): SitemapReport {
    this.report.unread = this.queued;
    return this.report;
  }

  #skip(url: string, reason: string): void {
    this.options.log?.(`sitemap ${url} skipped: ${reason}`);
    this.report.skippedCount++;
    if (this.report.skipped.length < SKIPPED_KEPT) this.report.skipped.push({ url, reason });
  }

  #enqueue(task: SitemapTask<C>): void {
    this.#waiting.push(task);
    this.#admit();
  }

  /** Moves waiting tasks to their hosts' queues at the gate while fewer than `maxActive` are there or running. */
  #admit(): void {
    while (this.#active < this.#maxActive && this.#waitingHead < this.#waiting.length) {
      const task = this.#waiting[this.#waitingHead++];
      const host = hostOf(task.kind === 'origin' ? task.origin : task.url);
      let queue = this.#queues.get(host);
      if (!queue) this.#queues.set(host, (queue = []));
      queue.push(task);
      this.#queued++;
      this.#active++;
      this.deps.gate.add(host);
    }
    if (this.#waitingHead > 1024 && 2 * this.#waitingHead > this.#waiting.length) {
      this.#waiting = this.#waiting.slice(this.#waitingHead);
      this.#waitingHead = 0;
    }
  }

  /** Queues a sitemap unless it was seen (a loop) or its host is not the one that named it. */
  #offer(url: string, namedBy: string | undefined, context: C, named = false): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return this.#skip(url, 'not a URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return this.#skip(url, 'not an http(s) URL');
    parsed.hash = '';
    const href = parsed.href;
    if (namedBy !== undefined && parsed.host !== hostOf(namedBy)) return this.#skip(href, `on another host than ${namedBy}, which names it`);
    if (this.#seen.has(href)) return this.#skip(href, 'listed again (a loop of sitemap indexes)');
    this.#seen.add(href);
    this.#enqueue({ kind: 'sitemap', url: href, named, context });
  }

  /** robots.txt is a request to the host too: it takes this slot, and the sitemaps wait for the next. */
  async #readRobots(task: Extract<SitemapTask<C>, { kind: 'origin' }>, host: string): Promise<void> {
    const { robots, gate } = this.deps;
    const entry = robots.peek(task.origin) ?? (await robots.entry(task.origin));
    gate.setCrawlDelay(host, robots.crawlDelayMs(task.origin));
    if (entry.status === 'unreachable') return this.#skip(`${task.origin}/sitemap.xml`, 'robots.txt unreachable');
    const named = entry.rules.sitemaps;
    if (named.length === 0) this.#offer(`${task.origin}/sitemap.xml`, task.origin, task.context);
    for (const url of named) this.#offer(url, task.origin, task.context);
  }

  async #read(task: Extract<SitemapTask<C>, { kind: 'sitemap' }>, host: string, budgetMs: number): Promise<void> {
    const { robots, fetcher } = this.deps;
    const files = (this.#filesOf.get(host) ?? 0) + 1;
    this.#filesOf.set(host, files);
    if (files > this.#budget.filesPerHost) return this.#skip(task.url, `more than ${this.#budget.filesPerHost} sitemap files on ${host}`);
    const allowed = await robots.check(task.url);
    if (!allowed.allowed) return this.#skip(task.url, allowed.reason === 'unreachable' ? 'robots.txt unreachable' : 'disallowed by robots.txt');
    // One signal for the file: its time budget, or the reader's own signal (the crawl stops).
    const file = new AbortController();
    const timer = setTimeout(() => file.abort(new SitemapTimeError(budgetMs)), budgetMs);
    const stop = this.options.signal;
    const onStop = () => file.abort(stop?.reason);
    stop?.addEventListener('abort', onStop, { once: true });
    if (stop?.aborted) onStop();
    const signal = file.signal;
    let parse: SitemapParse | undefined;
    let formatError: string | undefined;
    try {
      const result = await fetcher.fetch(task.url, {
        accept: 'any',
        signal,
        onRedirect: async (hop) => {
          if (hostOf(hop.to) !== host) return { follow: false, reason: `redirects to another host (${hop.to})` };
          return (await robots.check(hop.to)).allowed ? { follow: true } : { follow: false, reason: 'redirect target disallowed by robots.txt' };
        },
        consumeBody: async (body: Readable) => {
          try {
            parse = await parseSitemap(body, { signal });
          } catch (error) {
            if (!(error instanceof SitemapFormatError)) throw error;
            formatError = error.message;
          } finally {
            body.destroy();
          }
        },
      });
      if (signal.reason instanceof SitemapTimeError) return this.#skip(task.url, `took more than its time budget (${formatSeconds(budgetMs)})`);
      // Stopped by the caller (the crawl ended): not a fault of the sitemap.
      if (this.options.signal?.aborted) return;
      if (!result.ok) return this.#skip(task.url, `${result.error}: ${result.message}`);
      if (result.status === 404 && !task.named) return this.options.log?.(`no sitemap at ${task.url} (404)`);
      if (result.status < 200 || result.status >= 300) return this.#skip(task.url, `HTTP ${result.status}`);
      if (formatError !== undefined || !parse) return this.#skip(task.url, `malformed: ${formatError ?? 'empty'}`);
    } finally {
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
    }
    await this.#take(task, parse);
  }

  async #take(task: Extract<SitemapTask<C>, { kind: 'sitemap' }>, parse: SitemapParse): Promise<void> {
    const report = this.report;
    report.files++;
    if (parse.truncated) {
      const reason = parse.truncated === 'urls' ? 'more than 50,000 URLs' : 'larger than 50 MB uncompressed';
      this.options.log?.(`sitemap ${task.url} cut: ${reason}; the rest is not read`);
      report.cut.push({ url: task.url, reason });
    }
    if (parse.kind === 'index') {
      for (const entry of parse.entries) this.#offer(entry.loc, task.url, task.context);
      return;
    }
    const pages = this.#inScope(parse.entries);
    if (pages.length > 0) await this.options.onPages(pages, task.context);
  }

  #inScope(entries: readonly SitemapEntry[]): ListedPage[] {
    const pages: ListedPage[] = [];
    for (const entry of entries) {
      this.report.listed++;
      const check = normalizeUrl(entry.loc, this.deps.urlRules);
      if (!check.ok || !this.options.inScope(check.url)) continue;
      if (!this.#listed.has(check.url)) {
        this.#listed.add(check.url);
        this.report.inScope++;
      }
      pages.push(entry.alternates ? { url: check.url, lastmod: entry.lastmod, alternates: entry.alternates } : { url: check.url, lastmod: entry.lastmod });
    }
    return pages;
  }
}

/** A sitemap took longer than its share of the time budget. */
export class SitemapTimeError extends Error {
  readonly code = 'ELSE_SITEMAP_TIME';
  constructor(readonly budgetMs: number) {
    super(`sitemap time budget of ${formatSeconds(budgetMs)} spent`);
    this.name = 'SitemapTimeError';
  }
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
