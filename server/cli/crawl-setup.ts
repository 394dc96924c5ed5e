/**
 * Building the crawler stack (fetcher, robots, politeness, URL rules, page fetcher) from the
 * settings, and remembering in a data directory what it was crawled with.
 */
import type { CrawlerSettings, Settings } from '../../config/schema.ts';
import { Crawler } from '../../crawler/crawl-loop.ts';
import { Fetcher } from '../../crawler/fetcher.ts';
import { HostCredentials } from '../../crawler/host-credentials.ts';
import { DocumentPool } from '../../crawler/documents/worker-pool.ts';
import { PageFetcher, type DocumentReader, type Rendering } from '../../crawler/page-fetch.ts';
import { PageRenderer } from '../../crawler/render/renderer.ts';
import { HostScheduler, PoliteGate } from '../../crawler/politeness.ts';
import { robotsFetchVia } from '../../crawler/robots-fetch.ts';
import { RobotsPolicy } from '../../crawler/robots.ts';
import { urlRules, type UrlRules } from '../../crawler/url.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { limitHeapGrowth } from './heap-growth.ts';

export interface CrawlStack {
  fetcher: Fetcher;
  robots: RobotsPolicy;
  gate: PoliteGate;
  rules: UrlRules;
  pageFetcher: PageFetcher;
  crawler: Crawler;
  close(): Promise<void>;
}

export function crawlerUrlRules(settings: CrawlerSettings): UrlRules {
  return urlRules({
    stripTracking: settings.stripTracking,
    skipDynamic: settings.skipDynamicUrls,
    maxLength: settings.maxUrlLength,
    maxPathDepth: settings.maxPathDepth,
    now: Date.now(),
  });
}

/**
 * The User-Agent header: the configured one, with the contact URL as its comment (`(+URL)`, the
 * form site owners look for in their logs) when one is set.
 */
export function userAgentOf(settings: Pick<CrawlerSettings, 'userAgent' | 'contactUrl'>): string {
  if (!settings.contactUrl || settings.userAgent.includes(settings.contactUrl)) return settings.userAgent;
  const product = settings.userAgent.replace(/\s*\([^)]*\)\s*$/, '');
  return `${product} (+${settings.contactUrl})`;
}

export function createCrawlStack(store: CrawlStore, settings: CrawlerSettings): CrawlStack {
  // Every process that crawls goes through here (lse crawl, estimate, demo, serve).
  limitHeapGrowth(settings.heapGrowthPercent);
  const fetcher = new Fetcher({
    userAgent: userAgentOf(settings),
    maxConcurrency: settings.concurrency,
    connectTimeoutMs: settings.connectTimeoutMs,
    headersTimeoutMs: settings.headersTimeoutMs,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
    maxRedirects: settings.maxRedirects,
    allowPrivateNetworks: settings.allowPrivateNetworks,
    resolve: settings.resolve,
    credentials: settings.credentials.length > 0 ? new HostCredentials(settings.credentials) : undefined,
  });
  const robots = new RobotsPolicy({
    userAgent: settings.robotsAgent,
    fetchRobots: robotsFetchVia(fetcher),
    cacheTtlMs: settings.robotsCacheHours * 3_600_000,
    maxCrawlDelayMs: settings.maxCrawlDelaySeconds * 1000,
  });
  const gate = new PoliteGate(
    new HostScheduler({
      maxInFlightPerHost: settings.perHostConcurrency,
      defaultDelayMs: settings.delaySeconds * 1000,
      maxDelayMs: settings.maxCrawlDelaySeconds * 1000,
    }),
  );
  const rules = crawlerUrlRules(settings);
  const documents = documentReader(settings.documents);
  const rendering = renderingOf(settings.render, fetcher);
  const pageFetcher = new PageFetcher({ fetcher, robots, urlRules: rules, robotsAgent: settings.robotsAgent, documents, rendering, maxLinksPerPage: settings.maxLinksPerPage });
  const crawler = new Crawler({ store, fetcher, pageFetcher, robots, gate, urlRules: rules });
  const close = async () => {
    await documents?.pool.close();
    await rendering?.renderer.close();
    await fetcher.close();
  };
  return { fetcher, robots, gate, rules, pageFetcher, crawler, close };
}

function renderingOf(settings: CrawlerSettings['render'], fetcher: Fetcher): Rendering | undefined {
  if (!settings.enabled) return undefined;
  const patterns = settings.urlPatterns.map((pattern) => new RegExp(pattern));
  const renderer = new PageRenderer({ fetcher, executablePath: settings.executablePath, concurrency: settings.concurrency, timeoutMs: settings.timeoutSeconds * 1000, memoryMb: settings.memoryMb });
  return { renderer, wants: (url, page) => page.text.length < settings.minTextChars || patterns.some((pattern) => pattern.test(url)) };
}

function documentReader(settings: CrawlerSettings['documents']): DocumentReader | undefined {
  if (!settings.enabled) return undefined;
  const pool = new DocumentPool({ workers: settings.workers, timeoutMs: settings.timeoutSeconds * 1000, memoryMb: settings.memoryMb, limits: { maxEntryBytes: settings.zipEntryMaxBytes } });
  return { pool, maxBytes: { pdf: settings.pdfMaxBytes, docx: settings.docxMaxBytes, odt: settings.odtMaxBytes } };
}

/** The crawl's sitemap option from the settings (absent when sitemaps are off). */
export function sitemapOption(settings: CrawlerSettings): { named: readonly string[] } | undefined {
  return settings.sitemaps ? { named: settings.sitemapUrls } : undefined;
}

/** What a data directory remembers about how it was crawled (meta key `crawl-settings`). */
export const REMEMBERED_CRAWLER_KEYS = [
  'seeds',
  'scope',
  'resolve',
  'allowPrivateNetworks',
  'delaySeconds',
  'userAgent',
  'contactUrl',
  'robotsAgent',
  'ordering',
  'topic',
  'maxDepth',
  'hostPageBudget',
  'sitemaps',
  'sitemapUrls',
] as const satisfies ReadonlyArray<keyof CrawlerSettings>;

export async function rememberedCrawlerSettings(store: CrawlStore): Promise<Partial<CrawlerSettings>> {
  return (await store.getMeta<Partial<CrawlerSettings>>('crawl-settings')) ?? {};
}

export async function rememberCrawlerSettings(store: CrawlStore, settings: Settings['crawler']): Promise<void> {
  const kept: Record<string, unknown> = {};
  for (const key of REMEMBERED_CRAWLER_KEYS) if (settings[key] !== undefined) kept[key] = settings[key];
  await store.batch().putMeta('crawl-settings', kept).commit();
}
