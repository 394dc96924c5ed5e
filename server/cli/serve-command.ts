/**
 * `lse index` (re)builds the text index of a data directory; `lse serve` serves it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Settings } from '../../config/schema.ts';
import { loadRankSnapshot, SearchEngine } from '../../indexer/ranking/search-engine.ts';
import type { CrawlStore, PageRecord } from '../../indexer/store/crawl-store.ts';
import type { TextDocument } from '../../indexer/text-index/document.ts';
import { compactStore } from './store-compaction.ts';
import { loadSearchData, SearchDataPass } from '../../indexer/ranking/search-data.ts';
import { indexableDocuments } from '../../indexer/text-index/store-adapter.ts';
import { IndexCorruptError } from '../../indexer/text-index/errors.ts';
import { TextIndex, type TextIndexOptions } from '../../indexer/text-index/text-index.ts';
import { catchUpWithStore } from '../../indexer/text-index/catch-up.ts';
import { writeAppliedSequence } from '../../indexer/text-index/applied-sequence.ts';
import { buildApp } from '../app.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { dataDirDomain } from '../jobs/local-domain.ts';
import { storeLocalPageRank } from '../jobs/local-pagerank.ts';
import { DAILY_UPKEEP_CRON, Schedules } from '../jobs/schedules.ts';
import { adminRoutes } from '../routes/admin-routes.ts';
import { adminSiteRoutes, SCHEDULE_EDITS_KEY } from '../routes/admin-site-routes.ts';
import { openSearchExperience } from '../search-admin/search-experience.ts';
import { SiteWordsSource } from '../search-admin/site-words.ts';
import { searchAccessAdminRoutes } from '../routes/signin-route.ts';
import { PrivateContentWatch, PrivatePagesPass, SearchAccess } from '../search-access.ts';
import { SearchTurns } from '../search-turns.ts';
import { lowerHelperThreads } from '../../indexer/thread-priority.ts';
import { warmWithSearches } from '../warming-searches.ts';
import { prepareLanguageDetection } from '../../indexer/text-index/language-ngrams/index.ts';
import { createCrawlStack, type CrawlStack } from './crawl-setup.ts';
import { fetchFlagOptions, fetchFlagOverrides, settingsForDataDir } from './crawl-command.ts';
import { CliError } from './cli-error.ts';
import { numberFlag, parseFlags } from './flags.ts';

export const indexUsage = `lse index [--data DIR] [--config FILE]

  (Re)builds the text index of the data directory from its stored local pages (segments built
  on both cores, saved under DIR/index) and its local PageRank.`;

export const serveUsage = `lse serve [--data DIR] [--host 127.0.0.1] [--port 8080] [--create] [fetch flags]

  Serves a data directory: the search page (/) and API (/api/search), the admin page (/admin)
  and API (/api/admin/…, Bearer token from LSE_ADMIN_TOKEN or printed at start), the scheduled
  re-crawls and rounds of the settings, /healthz and /metrics. Estimation rounds interrupted by a
  crash resume at start, and the text index catches up with pages a crash left stored but not
  indexed. The fetch flags apply to the rounds and re-crawls it runs.

  --create            serve a data directory that holds no crawl yet (made if missing): crawl it
                      from the admin page. Without it, such a directory is refused (a mistyped
                      --data would otherwise serve an empty search).`;

/** The text index's settings: segment size and merge policy. */
export function textIndexOptions(settings: Settings): TextIndexOptions {
  const { segmentSize, segmentsPerTier, maxMergedSegmentSize, postingsCacheMb } = settings.index;
  return { maxSegmentDocs: segmentSize, mergePolicy: { segmentsPerTier, maxMergedSegmentDocs: maxMergedSegmentSize }, postingsCacheBytes: postingsCacheMb * 1024 * 1024 };
}

/**
 * Builds the index and the local PageRank of a store, and saves the page facts and suggestions
 * for the server to load; returns the number of documents.
 */
export async function buildIndex(store: CrawlStore, settings: Settings): Promise<{ documents: number; index: TextIndex }> {
  await storeLocalPageRank(store, settings.estimation.alpha, settings.estimation.tolerance);
  const index = await TextIndex.open(settings.dataDir, textIndexOptions(settings));
  // Read before the pages: the rebuild holds every page written up to it (catch-up.ts).
  const sequence = store.pageWriteSequence;
  let undetermined = 0;
  const named: string[] = [];
  // The page facts and suggestions a server loads at start come from the same pass over the pages.
  const searchData = await SearchDataPass.start(store);
  const privatePages = new PrivatePagesPass(store);
  const onPage = (id: number, page: PageRecord, document: TextDocument | undefined) => {
    searchData.add(id, page, document);
    privatePages.add(page);
  };
  const documents = indexableDocuments(store, { onPage, onUndeterminedLanguage: (url) => {
    undetermined++;
    if (named.length < 3) named.push(url);
  } });
  // Saved before the segments merge into tiers, so that their memory is free for the merges.
  const info = await index.rebuild(documents, { afterBuild: async () => {
    await searchData.save();
    await privatePages.save();
  } });
  await writeAppliedSequence(index.directory, sequence);
  // Such pages are indexed with the neutral analysis (no stemming), never left out.
  if (undetermined > 0) {
    console.warn(`${undetermined} page(s) in a language that cannot be told, indexed with the neutral analysis: ${named.join(', ')}${undetermined > named.length ? ', …' : ''} (all of them: lse pages --data ${settings.dataDir} --lang und)`);
  }
  return { documents: info.documentCount, index };
}

export async function indexCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { config: { type: 'string' }, data: { type: 'string' } }, 'index');
  const { settings, store } = await settingsForDataDir(flags, {});
  try {
    const started = performance.now();
    const { documents, index } = await buildIndex(store, settings);
    await index.close();
    const compactSeconds = await compactStore(store);
    process.stdout.write(`indexed ${documents} pages in ${((performance.now() - started) / 1000).toFixed(1)} s (${index.info().segments.length} segments; store compacted in ${compactSeconds.toFixed(1)} s)\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * Opens the index of a data directory. The store is the source of truth: an index that cannot be
 * read (an older format, a damaged file) is rebuilt from it, with the reason logged.
 */
export async function openOrRebuildIndex(store: CrawlStore, settings: Settings): Promise<TextIndex> {
  try {
    return await TextIndex.open(settings.dataDir, textIndexOptions(settings));
  } catch (error) {
    if (!(error instanceof IndexCorruptError)) throw error;
    process.stderr.write(`the text index cannot be read (${error.message}); rebuilding it from the store\n`);
    await rm(join(settings.dataDir, 'index'), { recursive: true, force: true });
    return (await buildIndex(store, settings)).index;
  }
}

/**
 * Brings the index up to date with the store before it answers: pages a killed job stored but
 * never indexed (or indexed in an older version) are re-indexed, pages gone from the store are
 * removed (within index.maxRemovedShare), and the local PageRank follows when anything changed.
 */
export async function catchUpIndex(store: CrawlStore, index: TextIndex, settings: Settings): Promise<void> {
  const started = performance.now();
  const report = await catchUpWithStore(store, index, { maxRemovedShare: settings.index.maxRemovedShare });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (report.heldRemovals > 0) {
    process.stderr.write(`the index holds ${report.heldRemovals} page(s) the store no longer holds as indexable, more than index.maxRemovedShare allows removing at start: kept; run \`lse index\` to drop them
`);
  }
  if (report.reindexed === 0 && report.removed === 0) return;
  process.stderr.write(`index caught up with the store in ${seconds} s: ${report.reindexed} page(s) re-indexed${report.rebuilt ? ' (rebuilt whole)' : ''}, ${report.removed} removed
`);
  await storeLocalPageRank(store, settings.estimation.alpha, settings.estimation.tolerance);
}

export interface Serving {
  url: string;
  runner: JobRunner;
  close(): Promise<void>;
}

export interface ServeOptions {
  listen: { host: string; port: number };
  /** An index already open (just built). */
  index?: TextIndex;
  /** A crawl stack already made (the demo's, pointed at its web); otherwise one from the settings. */
  stack?: CrawlStack;
  /** The true global PageRank, when known (the demo web): rounds report their error. */
  truthOf?: (urls: readonly string[]) => Float64Array;
  /** Admin token; defaults to the settings' (LSE_ADMIN_TOKEN). */
  adminToken?: string;
  /** The clock of re-crawls (tests move it on instead of sleeping). */
  now?: () => number;
  /** Where the server's log lines go (default: standard output) and from which level (default warn). */
  log?: { stream: { write(line: string): void }; level: string };
  /**
   * When the start began, as performance.now() (`lse serve`: 0, the process's start); the index is
   * warmed until index.warmUntilMs after it. Default: when serveStore is called.
   */
  startedAt?: number;
}

/** A name for the search page from the scope: the first host (`host:www.x.edu` → `www.x.edu`). */
export function siteNameOfScope(scope: readonly string[]): string | undefined {
  const host = scope.find((spec) => spec.startsWith('host:'));
  return host ? host.slice('host:'.length) : undefined;
}

/** A token for this run when none is configured: printed once at start. */
export function generatedAdminToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Serves a data directory: the search API and page, the admin API with its job runner (rounds,
 * crawls, re-crawls, resumed after a crash) and the schedules.
 */
export async function serveStore(store: CrawlStore, settings: Settings, options: ServeOptions): Promise<Serving> {
  const started = options.startedAt ?? performance.now();
  const textIndex = options.index ?? (await openOrRebuildIndex(store, settings));
  await catchUpIndex(store, textIndex, settings);
  // Ahead of the first update's commit, in the background (a segment a turn of the event loop).
  textIndex.prepareCommits().catch((error: Error) => process.stderr.write(`preparing the index's manifest: ${error.message}\n`));
  const engine = new SearchEngine(textIndex, await loadRankSnapshot(store), { blend: settings.ranking.blend, weight: settings.ranking.weight, otherLanguageWeight: settings.search.otherLanguageWeight });
  await loadSearchData(engine, store);
  prepareLanguageDetection();
  // Warming ends index.warmUntilMs after the start; its last index.warmSearchesMs go to searches.
  const warmedBy = started + settings.index.warmUntilMs;
  const listsMs = warmedBy - settings.index.warmSearchesMs - performance.now();
  if (listsMs > 0) await textIndex.warmLongestLists(listsMs);
  const stack = options.stack ?? createCrawlStack(store, settings.crawler);
  // Local pages: by the URL scope it was crawled with, or (topic crawls, or nothing remembered)
  // as its crawl stored them. A data directory never crawled has none: rounds and crawls then
  // fail with a message.
  const domain = dataDirDomain(settings.crawler);
  const runner = new JobRunner({ store, stack, settings, scope: domain.scope, domain, index: textIndex, engine, truthOf: options.truthOf, now: options.now });
  const schedules = new Schedules(runner, settings, (await store.getMeta<Record<string, string>>(SCHEDULE_EDITS_KEY)) ?? {});
  const token = options.adminToken ?? settings.server.adminToken ?? generatedAdminToken();
  const privateContent = new PrivateContentWatch(store, settings.crawler.credentials.length > 0);
  await privateContent.refresh();
  runner.on('job', (status: { state: string }) => privateContent.onJob(status));
  const access = await SearchAccess.open({ token: settings.server.searchToken, publicSearch: settings.server.publicSearch, dataDir: settings.dataDir, holdsPrivateContent: () => privateContent.holds });
  const experience = await openSearchExperience({ dataDir: settings.dataDir, store, index: textIndex, engine, token, search: settings.search, adminRateLimitPerMinute: settings.server.adminRateLimitPerMinute });
  // Analytics past their retention are also dropped when a new day's first search is recorded;
  // the daily task drops them on a site nobody searched for days.
  schedules.addTask('analytics-retention', DAILY_UPKEEP_CRON, () => experience.analytics.prune());
  const siteWords = new SiteWordsSource(settings.server, store, experience.analytics);
  await siteWords.refresh();
  runner.on('job', (status: { state: string }) => {
    if (status.state === 'done') void siteWords.refresh();
  });
  if (settings.index.warmSearchesMs > 0) await warmWithSearches({ search: (query) => engine.search(query), analytics: experience.analytics, index: textIndex }, warmedBy);
  const app = await buildApp({
    search: engine,
    analytics: experience.appAnalytics,
    access,
    rateLimitPerMinute: settings.server.rateLimitPerMinute,
    slowSearchMs: settings.server.slowSearchMs,
    trustProxy: settings.server.trustProxy,
    searchTurns: new SearchTurns(() => runner.running()),
    siteName: settings.server.siteName ?? siteNameOfScope(settings.crawler.scope),
    siteInfo: () => ({ ...siteWords.words() }),
    logger: { level: options.log?.level ?? 'warn', redact: ['req.headers.authorization', 'req.headers.cookie'], ...(options.log ? { stream: options.log.stream } : {}) },
    plugins: [
      adminRoutes({ token, runner, store, index: textIndex, engine, schedules, rateLimitPerMinute: settings.server.adminRateLimitPerMinute, documentsBatchBytes: settings.server.documentsBatchBytes }),
      experience.adminPlugin,
      searchAccessAdminRoutes(access, token),
      adminSiteRoutes({ token, runner, store, index: textIndex, control: experience.control, scope: domain.scope, schedules, rateLimitPerMinute: settings.server.adminRateLimitPerMinute }),
    ],
  });
  const shutDown = async () => {
    await schedules.stop();
    await runner.close();
    await privateContent.settled();
    await app.close();
    await experience.analytics.flush();
    await textIndex.close();
    if (!options.stack) await stack.close();
  };
  let address: string;
  try {
    address = await app.listen({ host: options.listen.host, port: options.listen.port });
  } catch (error) {
    // A port in use: nothing keeps running (schedules, workers), and the caller says why.
    await shutDown();
    throw error;
  }
  const resumed = await runner.resumeInterrupted();
  if (resumed.length > 0) process.stderr.write(`resuming interrupted estimation rounds: ${resumed.join(', ')}\n`);
  if (!options.adminToken && !settings.server.adminToken) process.stdout.write(`admin token (set LSE_ADMIN_TOKEN to choose one): ${token}\n`);
  return {
    url: address,
    runner,
    close: shutDown,
  };
}

/** Resolves on SIGINT / SIGTERM: the server finishes its requests, then the store closes. */
export function untilSignalled(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

/** A TCP port from --port: a whole number 0…65535 (0: any free port). */
export function portFlag(value: string | undefined): number | undefined {
  const port = numberFlag(value, 'port');
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) throw new CliError(`--port must be a whole number from 0 to 65535, got "${value}"`);
  return port;
}

/** Does the data directory hold a crawl (stored pages or a remembered crawl)? */
async function holdsCrawl(store: CrawlStore): Promise<boolean> {
  for await (const entry of store.pages()) if (entry) return true;
  return (await store.getMeta('crawl-settings')) !== undefined;
}

export async function serveCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { ...fetchFlagOptions, host: { type: 'string' }, port: { type: 'string' }, create: { type: 'boolean' } }, 'serve');
  const port = portFlag(flags.port);
  const dataDir = flags.data ?? process.env.LSE_DATA;
  // Checked before the store opens (opening makes the directory).
  if (dataDir !== undefined && !flags.create && !existsSync(dataDir)) {
    throw new CliError(`lse serve: no data directory ${dataDir}: crawl into it first (lse crawl --data ${dataDir} …) or push pages (lse import --data ${dataDir} FILE), fix the path, or pass --create to serve an empty one`);
  }
  const { settings, store } = await settingsForDataDir(flags, fetchFlagOverrides(flags));
  try {
    if (!flags.create && !(await holdsCrawl(store))) {
      throw new CliError(`lse serve: ${settings.dataDir} holds no crawl: crawl into it first (lse crawl --data ${settings.dataDir} …) or push pages (lse import --data ${settings.dataDir} FILE), fix the path, or pass --create to serve it empty`);
    }
    const listen = { host: flags.host ?? settings.server.host, port: port ?? settings.server.port };
    let serving: Serving;
    try {
      // The process's start: warming ends index.warmUntilMs after it, whatever opening the store took.
      // Searches first: the process's other threads yield to the main one. Threads started later
      // are workers, which lower themselves (a second call after serving began found none to lower).
      lowerHelperThreads();
      serving = await serveStore(store, settings, { listen, startedAt: 0 });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EADDRINUSE') throw new CliError(`lse serve: port ${listen.port} on ${listen.host} is in use (another lse serve?): stop it, or choose another with --port N (setting server.port)`);
      if (code === 'EACCES') throw new CliError(`lse serve: not allowed to listen on port ${listen.port} (ports below 1024 need privileges): choose another with --port N`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`lse serve: cannot listen on ${listen.host}: not an address of this machine (--host, setting server.host)`);
      throw error;
    }
    process.stdout.write(`search page: ${serving.url}/\nadmin page:  ${serving.url}/admin\n`);
    await untilSignalled();
    await serving.close();
    return 0;
  } finally {
    await store.close();
  }
}
