/**
 * `lse crawl`: crawl the local domain into a data directory (resumable: run it again to go on).
 */
import { loadSettings, SettingsError } from '../../config/load-settings.ts';
import type { Settings } from '../../config/schema.ts';
import { CrawlOptionError, type CrawlSummary } from '../../crawler/crawl-loop.ts';
import { parseScope, ScopeSpecError } from '../../crawler/scope.ts';
import type { SitemapReport } from '../../crawler/sitemap-discovery.ts';
import { formatDiagnosis } from '../../crawler/crawl-diagnosis.ts';
import { CrawlStore, StoreError } from '../../indexer/store/crawl-store.ts';
import { CliError } from './cli-error.ts';
import { createCrawlStack, rememberCrawlerSettings, rememberedCrawlerSettings, sitemapOption } from './crawl-setup.ts';
import { numberFlag, parseFlags } from './flags.ts';
import { createProgress } from './progress.ts';
import { exampleUrlsByState, formatExamples } from './pages-command.ts';

export const fetchFlagsUsage = `  --config FILE             settings file (JSON); see config/schema.ts
  --data DIR                data directory (default ./data, or LSE_DATA)
  --delay SECONDS           politeness: seconds between requests to one host (default 1)
  --resolve H:P:ADDR:PORT   send requests for host H port P to ADDR:PORT (like curl); H may be * or *.suffix; repeatable
  --allow-private-networks  allow loopback and private addresses (refused by default)`;

export const crawlUsage = `lse crawl [--seed URL …] [--scope SPEC …] [--ordering NAME] [--max-pages N] [--max-depth N]
          [--concurrency N] [--topic TERMS [--topic-threshold X]] [fetch flags]

  Crawls the local domain from the seeds, politely, in the order of an ordering metric, into the
  data directory. Stop it at any moment (even kill -9) and run it again: it goes on from the stored
  frontier and fetches no stored page twice. The data directory remembers the seeds, scope and
  fetch settings, so later runs need no flags.

  --seed URL          where to start (repeatable)
  --scope SPEC        the local domain: host:SUFFIX, prefix:URL or regex:RE (repeatable; default: the seeds' hosts)
  --ordering NAME     bfs, backlinks, pagerank, rankmass, windowed-rankmass, lneighbor, focused (default bfs)
  --max-pages N       stop when N pages are stored (default 1000)
  --max-depth N       follow links at most N steps from the seeds (default 50)
  --concurrency N     parallel requests (default 16)
  --topic TERMS       topic crawl (Cho's focused crawling): comma-separated driving terms; a page
                      is local when its tf-idf similarity to them reaches the threshold, links
                      are followed on any host (or within --scope) up to 2 steps from a hot page
  --topic-threshold X similarity a page needs to be local (0…1, default 0.1)
  --sitemap URL       read this sitemap too (repeatable); the seeds' sitemaps (robots.txt
                      Sitemap: lines, else /sitemap.xml) are read anyway
  --no-sitemaps       do not read sitemaps
  --contact URL       where site owners can reach you (http(s) or mailto:), sent in the
                      User-Agent as (+URL); set it before crawling other people's sites
${fetchFlagsUsage}

  Example (the demo web served by "lse demo-web"):
    lse crawl --data data/demo --seed http://www.northfield-university.edu/ \\
      --resolve '*:80:127.0.0.1:8081' --allow-private-networks --delay 0.01`;

export const fetchFlagOptions = {
  config: { type: 'string' },
  data: { type: 'string' },
  delay: { type: 'string' },
  resolve: { type: 'string', multiple: true },
  'allow-private-networks': { type: 'boolean' },
} as const;

/** `host:port:addr:port` → `{ "host:port": "addr:port" }`. */
export function parseResolveFlags(values: readonly string[] | undefined): Record<string, string> | undefined {
  if (!values || values.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const value of values) {
    const match = /^([^:\s]+):(\d{1,5}):(.+):(\d{1,5})$/.exec(value);
    if (!match) throw new CliError(`--resolve "${value}": expected host:port:addr:port, e.g. '*:80:127.0.0.1:8081'`);
    out[`${match[1]}:${match[2]}`] = `${match[3]}:${match[4]}`;
  }
  return out;
}

/** Crawler settings from the fetch flags (undefined where a flag is absent). */
export function fetchFlagOverrides(flags: { delay?: string; resolve?: string[]; 'allow-private-networks'?: boolean }): Record<string, unknown> {
  return {
    delaySeconds: numberFlag(flags.delay, 'delay'),
    resolve: parseResolveFlags(flags.resolve),
    allowPrivateNetworks: flags['allow-private-networks'] || undefined,
  };
}

/** Settings for a command on a data directory: defaults ← file ← env ← remembered ← flags. */
export async function settingsForDataDir(
  flags: { config?: string; data?: string },
  crawlerOverrides: Record<string, unknown>,
): Promise<{ settings: Settings; store: CrawlStore }> {
  let base: Settings;
  try {
    base = loadSettings({ file: flags.config, overrides: flags.data ? { dataDir: flags.data } : undefined });
  } catch (error) {
    if (error instanceof SettingsError) throw new CliError(error.message);
    throw error;
  }
  let store: CrawlStore;
  try {
    store = await CrawlStore.open(base.dataDir);
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message, 1);
    throw error;
  }
  try {
    const remembered = await rememberedCrawlerSettings(store);
    const settings = loadSettings({
      file: flags.config,
      overrides: { dataDir: base.dataDir, crawler: { ...remembered, ...stripUndefined(crawlerOverrides) } },
    });
    return { settings, store };
  } catch (error) {
    await store.close();
    if (error instanceof SettingsError) throw new CliError(error.message);
    throw error;
  }
}

function stripUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

export function formatCrawlSummary(summary: CrawlSummary): string {
  const states = Object.entries(summary.byState)
    .sort((a, b) => b[1] - a[1])
    .map(([state, count]) => `${state} ${count}`)
    .join(', ');
  const rejected = Object.entries(summary.rejected)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ');
  return [
    `crawl stopped: ${summary.stoppedBecause}`,
    `  pages stored: ${summary.stored} (${states || 'none'}); fetched by this run: ${summary.fetchedThisRun} in ${summary.seconds.toFixed(1)} s (${summary.pagesPerSecond.toFixed(1)} pages/s)`,
    `  duplicates: ${summary.duplicates}; frontier left: ${summary.frontier}; over host budget: ${summary.overBudget}`,
    `  URLs refused (traps and rules): ${rejected || 'none'}`,
    // A bound matters only for a crawl that stopped early; a complete one stored everything reachable.
    ...(summary.stoppedBecause === 'frontier-empty'
      ? ['  complete: every page reachable from the seeds within the scope and depth was visited']
      : [`  RankMass coverage bound: at least ${(100 * summary.coverageBound).toFixed(2)} % of the seeds' personalised PageRank is stored`]),
    ...(summary.sitemaps ? [formatSitemapLine(summary.sitemaps)] : []),
    ...formatDiagnosis(summary.diagnosis ?? []),
    ...(summary.topicPages ? [`  topic: ${summary.topicPages.local} pages passed the similarity threshold (local), ${summary.topicPages.global} did not (global)`] : []),
  ].join('\n');
}

function formatSitemapLine(report: SitemapReport): string {
  const notes = [
    report.skippedCount > 0 ? `${report.skippedCount} skipped (${report.skipped.slice(0, 3).map((s) => `${s.url}: ${s.reason}`).join('; ')})` : '',
    report.cut.length > 0 ? `${report.cut.length} cut at the protocol's limits` : '',
    report.unread > 0 ? `${report.unread} not read (the crawl stopped first)` : '',
  ].filter(Boolean);
  return `  sitemaps: ${report.files} read, ${report.listed} URLs listed, ${report.inScope} in scope${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`;
}

export async function crawlCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(
    argv,
    {
      ...fetchFlagOptions,
      seed: { type: 'string', multiple: true },
      scope: { type: 'string', multiple: true },
      ordering: { type: 'string' },
      'max-pages': { type: 'string' },
      'max-depth': { type: 'string' },
      concurrency: { type: 'string' },
      topic: { type: 'string' },
      'topic-threshold': { type: 'string' },
      sitemap: { type: 'string', multiple: true },
      'no-sitemaps': { type: 'boolean' },
      contact: { type: 'string' },
    },
    'crawl',
  );
  const overrides = {
    ...fetchFlagOverrides(flags),
    seeds: flags.seed,
    scope: flags.scope,
    ordering: flags.ordering,
    maxPages: numberFlag(flags['max-pages'], 'max-pages'),
    maxDepth: numberFlag(flags['max-depth'], 'max-depth'),
    concurrency: numberFlag(flags.concurrency, 'concurrency'),
    sitemapUrls: flags.sitemap,
    sitemaps: flags['no-sitemaps'] ? false : undefined,
    contactUrl: flags.contact,
    topic: flags.topic ? { terms: flags.topic.split(',').map((t) => t.trim()).filter(Boolean), threshold: numberFlag(flags['topic-threshold'], 'topic-threshold') } : undefined,
  };
  if (flags['topic-threshold'] !== undefined && !flags.topic) throw new CliError('lse crawl: --topic-threshold goes with --topic TERMS');
  const { settings, store } = await settingsForDataDir(flags, overrides);
  const crawler = settings.crawler;
  if (crawler.seeds.length === 0) {
    await store.close();
    throw new CliError('lse crawl: no seeds: give --seed URL (the data directory remembers them afterwards)');
  }
  // A topic crawl may go anywhere unless a scope bounds it; that default is not remembered.
  const topicCrawl = crawler.topic !== undefined;
  const scopeSpecs = crawler.scope.length > 0 || topicCrawl ? crawler.scope : crawler.seeds.map((seed) => `host:${new URL(seed).hostname}`);
  let scope;
  try {
    scope = parseScope(scopeSpecs.length > 0 ? scopeSpecs : ['regex:^https?://']);
  } catch (error) {
    await store.close();
    if (error instanceof ScopeSpecError) throw new CliError(`--scope: ${error.message}`);
    throw error;
  }
  await rememberCrawlerSettings(store, { ...crawler, scope: scopeSpecs });
  if (!crawler.contactUrl && !crawler.allowPrivateNetworks) {
    process.stderr.write('note: no contact URL: site owners who see this crawler in their logs cannot reach you; set --contact URL (setting crawler.contactUrl)\n');
  }
  const stack = createCrawlStack(store, crawler);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const progress = createProgress(crawler.maxPages, 'crawl');
  try {
    const summary = await stack.crawler.crawl({
      seeds: crawler.seeds,
      scope,
      ordering: crawler.ordering,
      maxPages: crawler.maxPages,
      maxDepth: crawler.maxDepth,
      hostPageBudget: crawler.hostPageBudget,
      concurrency: crawler.concurrency,
      rankMassEpsilon: crawler.rankMassEpsilon,
      rankMassWindow: crawler.rankMassWindow,
      topic: crawler.topic,
      nearDuplicateThreshold: crawler.nearDuplicateThreshold,
      sitemaps: sitemapOption(crawler),
      log: (message) => process.stderr.write(`${message}\n`),
      signal: controller.signal,
      // Toward what is left to fetch (stored + frontier), not the page limit alone.
      onProgress: (p) =>
        progress.update(p.stored, `${p.pagesPerSecond.toFixed(0)} pages/s | frontier ${p.frontier} | hosts ${p.hosts} | errors ${p.errors}`, Math.max(1, Math.min(crawler.maxPages, p.stored + p.frontier))),
    });
    progress.stop();
    process.stdout.write(`${formatCrawlSummary(summary)}\n`);
    const examples = formatExamples(await exampleUrlsByState(store), settings.dataDir);
    if (examples.length > 0) process.stdout.write(`  pages of the site not stored as searchable pages, a few of each state:\n${examples.map((line) => `  ${line}`).join('\n')}\n`);
    return summary.stoppedBecause === 'aborted' ? 130 : 0;
  } catch (error) {
    progress.stop();
    if (error instanceof CrawlOptionError) throw new CliError(`lse crawl: ${error.message}`);
    throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await stack.close();
    await store.close();
  }
}
