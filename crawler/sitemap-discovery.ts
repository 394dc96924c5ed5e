/**
 * Finding pages through sitemaps: for each origin, the `Sitemap:` lines of its robots.txt, or
 * `/sitemap.xml` when it names none, plus the sitemaps the settings name; sitemap indexes are
 * followed to their children. Every sitemap request goes through the one fetcher, is checked
 * against robots.txt and waits for its host's politeness slot like a page.
 *
 * What is skipped, and logged, with the crawl going on: a sitemap on another host than the one
 * that named it, a sitemap listed twice (a loop of indexes), one robots.txt disallows, one that
 * is not a sitemap or is malformed, one that fails to download, one over its time budget, the
 * files of a host past its file or time budget. A file beyond the protocol's limits (50,000
 * URLs, 50 MB) is cut at the limit.
 *
 * The crawl loop reads sitemaps beside its pages through a `SitemapReader` (sitemap-reader.ts);
 * `discoverFromSitemaps` reads them on their own (a re-crawl reads them before its visits), and
 * must then be the only one taking slots from the gate until it returns.
 */
import type { SitemapAlternate } from './sitemap-parse.ts';
import { SitemapReader, type SitemapBudget, type SitemapDeps, type SitemapReport } from './sitemap-reader.ts';

export { SITEMAP_BUDGET_DEFAULTS, SitemapReader, type ListedPage, type SitemapBudget, type SitemapDeps, type SitemapReport, type SitemapTask } from './sitemap-reader.ts';

export interface SitemapDiscoveryOptions {
  /** Origins whose robots.txt sitemaps (or /sitemap.xml) are read. */
  origins: readonly string[];
  /** Sitemaps named in the settings (`--sitemap URL`), read whatever their host. */
  named?: readonly string[];
  /** Listed pages kept (the crawl's scope). */
  inScope: (url: string) => boolean;
  budget?: Partial<SitemapBudget>;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

export interface SitemapDiscovery {
  /** Normalised in-scope page URLs → their latest `<lastmod>` (ms), or undefined when none was given. */
  pages: Map<string, number | undefined>;
  /** Translations the sitemaps name (`xhtml:link rel=alternate hreflang`), by normalised page URL. */
  alternates: Map<string, SitemapAlternate[]>;
  report: SitemapReport;
}

/** Reads the sitemaps of the origins and the named ones, up to four hosts at a time. */
export async function discoverFromSitemaps(deps: SitemapDeps, options: SitemapDiscoveryOptions): Promise<SitemapDiscovery> {
  const { gate } = deps;
  const pages = new Map<string, number | undefined>();
  const alternates = new Map<string, SitemapAlternate[]>();
  const reader = new SitemapReader<undefined>(deps, {
    inScope: options.inScope,
    budget: options.budget,
    signal: options.signal,
    log: options.log,
    onPages: (listed) => {
      for (const { url, lastmod, alternates: named } of listed) {
        if (named) alternates.set(url, named);
        const known = pages.get(url);
        pages.set(url, lastmod === undefined ? known : Math.max(known ?? 0, lastmod));
      }
    },
  });
  for (const url of options.named ?? []) reader.addNamed(url, undefined);
  for (const origin of new Set(options.origins)) reader.addOrigin(origin, undefined);
  const worker = async () => {
    for (;;) {
      const host = await gate.acquireUnlessAborted(options.signal);
      if (host === null || host === undefined) return;
      const task = reader.take(host);
      try {
        if (task) await reader.run(task, host);
      } finally {
        gate.release(host);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(4, reader.queued)) }, worker));
  return { pages, alternates, report: reader.finish() };
}
