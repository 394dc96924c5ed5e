/**
 * lse on a served documentation site, as a site owner would run it: the site crawled from its
 * seed through the product's crawl stack, the local PageRank and the text index built as
 * `lse index` builds them, and queries answered by the search engine the server uses (page
 * facts and grouping included). Engines with other blends share the one index.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../config/load-settings.ts';
import type { Settings } from '../config/schema.ts';
import { parseScope } from '../crawler/scope.ts';
import type { BlendMode } from '../indexer/ranking/blend.ts';
import { loadPageFacts } from '../indexer/ranking/page-facts.ts';
import { loadRankSnapshot, SearchEngine, type RankMode, type SearchEngineOptions } from '../indexer/ranking/search-engine.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { SearchRequestError } from '../indexer/ranking/errors.ts';
import { QuerySyntaxError } from '../indexer/text-index/errors.ts';
import type { TextIndex } from '../indexer/text-index/text-index.ts';
import { createCrawlStack, rememberCrawlerSettings } from '../server/cli/crawl-setup.ts';
import { buildIndex } from '../server/cli/serve-command.ts';
import { siteUrl, type DocSite } from './relevance-sites.ts';

export interface LseSite {
  settings: Settings;
  store: CrawlStore;
  index: TextIndex;
  pages: number;
  crawlSeconds: number;
  indexSeconds: number;
  /** URLs of the pages in the index. */
  indexedUrls(): string[];
  /** An engine over the site's index with this blend and the site's page facts. */
  engine(blend: BlendMode, weight: number, options?: Partial<SearchEngineOptions>): SearchEngine;
  close(): Promise<void>;
}

export async function crawlAndIndex(site: DocSite, port: number): Promise<LseSite> {
  const dataDir = mkdtempSync(join(tmpdir(), `lse-relevance-${site.name}-`));
  const settings = loadSettings({
    env: {},
    overrides: {
      dataDir,
      crawler: {
        seeds: [siteUrl(site, site.seedPath)],
        scope: [`prefix:${siteUrl(site, site.scopePath)}`],
        resolve: { '*:80': `127.0.0.1:${port}` },
        allowPrivateNetworks: true,
        delaySeconds: 0,
        perHostConcurrency: 4,
        concurrency: 8,
        maxPages: site.maxPages,
      },
    },
  });
  const store = await CrawlStore.open(dataDir);
  const stack = createCrawlStack(store, settings.crawler);
  let index: TextIndex | undefined;
  const close = async () => {
    await index?.close();
    await stack.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const crawlStarted = performance.now();
    await rememberCrawlerSettings(store, settings.crawler);
    await stack.crawler.crawl({ seeds: settings.crawler.seeds, scope: parseScope(settings.crawler.scope), ordering: 'bfs', maxPages: site.maxPages, maxDepth: 50, hostPageBudget: site.maxPages, concurrency: 8 });
    const crawlSeconds = (performance.now() - crawlStarted) / 1000;
    const indexStarted = performance.now();
    const built = await buildIndex(store, settings);
    index = built.index;
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    const ranks = await loadRankSnapshot(store);
    const builtIndex = index;
    const facts = await loadPageFacts(store);
    return {
      settings,
      store,
      index: builtIndex,
      pages: built.documents,
      crawlSeconds,
      indexSeconds,
      indexedUrls: () => Array.from({ length: facts.size }, (_, row) => row).filter((row) => facts.isIndexed(row)).map((row) => facts.urlOf(row)),
      engine(blend, weight, options = {}) {
        // Suggestions play no part in a search: only the facts (copies, translations) are loaded.
        const engine = new SearchEngine(builtIndex, ranks, { blend, weight, ...options });
        engine.setFacts(facts);
        return engine;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The top 10 results of a query, each as its URL and the URLs of the copies it stands for (none
 * when the engine refuses the query, as the API's 400 would).
 */
export async function lseTop10(engine: SearchEngine, q: string, rank: RankMode): Promise<string[][]> {
  try {
    const result = await engine.search({ q, page: 1, size: 10, rank, explain: false });
    return result.hits.map((hit) => [hit.url, ...(hit.duplicates ?? [])]);
  } catch (error) {
    if (error instanceof QuerySyntaxError || error instanceof SearchRequestError) return [];
    throw error;
  }
}
