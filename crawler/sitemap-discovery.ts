/**
 * Finding pages through sitemaps: for each origin, the `Sitemap:` lines of its robots.txt, or
 * `/sitemap.xml` when it names none, plus the sitemaps the settings name; sitemap indexes are
 * followed to their children. Every sitemap request goes through the one fetcher, is checked
 * against robots.txt and waits for its host's politeness slot like a page.
 *
 * What is skipped, and logged, with the crawl going on: a sitemap on another host than the one
 * that named it, a sitemap listed twice (a loop of indexes), one robots.txt disallows, one that
 * is not a sitemap or is malformed, one that fails to download. A file beyond the protocol's
 * limits (50,000 URLs, 50 MB) is cut at the limit.
 */
import type { Readable } from 'node:stream';
import { hostOf } from './crawl-recorder.ts';
import type { Fetcher } from './fetcher.ts';
import type { PoliteGate } from './politeness.ts';
import type { RobotsPolicy } from './robots.ts';
import { parseSitemap, SitemapFormatError, type SitemapAlternate, type SitemapParse } from './sitemap-parse.ts';
import { normalizeUrl, type UrlRules } from './url.ts';

export interface SitemapDeps {
  fetcher: Fetcher;
  robots: RobotsPolicy;
  gate: PoliteGate;
  urlRules: UrlRules;
}

export interface SitemapDiscoveryOptions {
  /** Origins whose robots.txt sitemaps (or /sitemap.xml) are read. */
  origins: readonly string[];
  /** Sitemaps named in the settings (`--sitemap URL`), read whatever their host. */
  named?: readonly string[];
  /** Listed pages kept (the crawl's scope). */
  inScope: (url: string) => boolean;
  /** Sitemap files read per host at most (indexes can list many). */
  maxFilesPerHost?: number;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

export interface SitemapReport {
  /** Sitemap files read (indexes included). */
  files: number;
  /** Page URLs listed, and of them in scope (kept). */
  listed: number;
  inScope: number;
  /** Sitemaps skipped, with why (the first 20). */
  skipped: Array<{ url: string; reason: string }>;
  /** Files cut at a protocol limit. */
  cut: Array<{ url: string; reason: string }>;
}

export interface SitemapDiscovery {
  /** Normalised in-scope page URLs → their latest `<lastmod>` (ms), or undefined when none was given. */
  pages: Map<string, number | undefined>;
  /** Translations the sitemaps name (`xhtml:link rel=alternate hreflang`), by normalised page URL. */
  alternates: Map<string, SitemapAlternate[]>;
  report: SitemapReport;
}

const SKIPPED_KEPT = 20;
const DEFAULT_MAX_FILES_PER_HOST = 1000;

/** A task of a host: read an origin's robots.txt sitemap lines, or read one sitemap. */
type SitemapTask = { kind: 'origin'; origin: string } | { kind: 'sitemap'; url: string; named: boolean };

export async function discoverFromSitemaps(deps: SitemapDeps, options: SitemapDiscoveryOptions): Promise<SitemapDiscovery> {
  const { fetcher, robots, gate } = deps;
  const log = options.log ?? (() => {});
  const maxFiles = options.maxFilesPerHost ?? DEFAULT_MAX_FILES_PER_HOST;
  const pages = new Map<string, number | undefined>();
  const alternates = new Map<string, SitemapAlternate[]>();
  const report: SitemapReport = { files: 0, listed: 0, inScope: 0, skipped: [], cut: [] };
  const queues = new Map<string, SitemapTask[]>();
  const seen = new Set<string>();
  const filesOf = new Map<string, number>();

  const skip = (url: string, reason: string) => {
    log(`sitemap ${url} skipped: ${reason}`);
    if (report.skipped.length < SKIPPED_KEPT) report.skipped.push({ url, reason });
  };
  const enqueue = (task: SitemapTask, front = false) => {
    const host = hostOf(task.kind === 'origin' ? task.origin : task.url);
    let queue = queues.get(host);
    if (!queue) queues.set(host, (queue = []));
    if (front) queue.unshift(task);
    else queue.push(task);
    gate.add(host);
  };
  /** Queues a sitemap unless it was seen (a loop) or its host is not the one that named it. */
  const offer = (url: string, namedBy: string | undefined, named = false) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return skip(url, 'not a URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return skip(url, 'not an http(s) URL');
    parsed.hash = '';
    const href = parsed.href;
    if (namedBy !== undefined && parsed.host !== hostOf(namedBy)) return skip(href, `on another host than ${namedBy}, which names it`);
    if (seen.has(href)) return skip(href, 'listed again (a loop of sitemap indexes)');
    seen.add(href);
    enqueue({ kind: 'sitemap', url: href, named });
  };

  const read = async (task: Extract<SitemapTask, { kind: 'sitemap' }>): Promise<void> => {
    const host = hostOf(task.url);
    const files = (filesOf.get(host) ?? 0) + 1;
    filesOf.set(host, files);
    if (files > maxFiles) return skip(task.url, `more than ${maxFiles} sitemap files on ${host}`);
    const allowed = await robots.check(task.url);
    if (!allowed.allowed) return skip(task.url, allowed.reason === 'unreachable' ? 'robots.txt unreachable' : 'disallowed by robots.txt');
    let parse: SitemapParse | undefined;
    let formatError: string | undefined;
    const result = await fetcher.fetch(task.url, {
      accept: 'any',
      signal: options.signal,
      onRedirect: async (hop) => {
        if (hostOf(hop.to) !== host) return { follow: false, reason: `redirects to another host (${hop.to})` };
        return (await robots.check(hop.to)).allowed ? { follow: true } : { follow: false, reason: 'redirect target disallowed by robots.txt' };
      },
      consumeBody: async (body: Readable) => {
        try {
          parse = await parseSitemap(body);
        } catch (error) {
          if (!(error instanceof SitemapFormatError)) throw error;
          formatError = error.message;
        } finally {
          body.destroy();
        }
      },
    });
    if (!result.ok) return skip(task.url, `${result.error}: ${result.message}`);
    if (result.status === 404 && !task.named) return log(`no sitemap at ${task.url} (404)`);
    if (result.status < 200 || result.status >= 300) return skip(task.url, `HTTP ${result.status}`);
    if (formatError !== undefined || !parse) return skip(task.url, `malformed: ${formatError ?? 'empty'}`);
    report.files++;
    if (parse.truncated) {
      const reason = parse.truncated === 'urls' ? 'more than 50,000 URLs' : 'larger than 50 MB uncompressed';
      log(`sitemap ${task.url} cut: ${reason}; the rest is not read`);
      report.cut.push({ url: task.url, reason });
    }
    if (parse.kind === 'index') {
      for (const entry of parse.entries) offer(entry.loc, task.url);
      return;
    }
    for (const entry of parse.entries) {
      report.listed++;
      const check = normalizeUrl(entry.loc, deps.urlRules);
      if (!check.ok || !options.inScope(check.url)) continue;
      if (!pages.has(check.url)) report.inScope++;
      const known = pages.get(check.url);
      pages.set(check.url, entry.lastmod === undefined ? known : Math.max(known ?? 0, entry.lastmod));
      if (entry.alternates) alternates.set(check.url, entry.alternates);
    }
  };

  const run = async (task: SitemapTask, host: string): Promise<void> => {
    if (task.kind === 'sitemap') return read(task);
    // robots.txt is a request to the host too: it takes this slot, and the sitemaps wait for the next.
    const entry = robots.peek(task.origin) ?? (await robots.entry(task.origin));
    gate.setCrawlDelay(host, robots.crawlDelayMs(task.origin));
    if (entry.status === 'unreachable') return skip(`${task.origin}/sitemap.xml`, 'robots.txt unreachable');
    const named = entry.rules.sitemaps;
    if (named.length === 0) offer(`${task.origin}/sitemap.xml`, task.origin);
    for (const url of named) offer(url, task.origin);
  };

  for (const url of options.named ?? []) offer(url, undefined, true);
  for (const origin of new Set(options.origins)) enqueue({ kind: 'origin', origin });
  const worker = async () => {
    for (;;) {
      const host = await gate.acquireUnlessAborted(options.signal);
      if (host === null || host === undefined) return;
      const task = queues.get(host)?.shift();
      try {
        if (task) await run(task, host);
      } finally {
        gate.release(host);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(4, queues.size)) }, worker));
  return { pages, alternates, report };
}
