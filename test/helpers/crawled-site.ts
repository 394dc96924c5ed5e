/**
 * A served site as a user gets it: crawled over HTTP into a fresh data directory, its local
 * PageRank stored, indexed, and searched through the real app on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadSettings } from '../../config/load-settings.ts';
import { parseScope } from '../../crawler/scope.ts';
import { loadSearchData } from '../../indexer/ranking/search-data.ts';
import { loadRankSnapshot, SearchEngine } from '../../indexer/ranking/search-engine.ts';
import { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { indexableDocuments, TextIndex } from '../../indexer/text-index/index.ts';
import { buildApp } from '../../server/app.ts';
import { createCrawlStack } from '../../server/cli/crawl-setup.ts';
import { storeLocalPageRank } from '../../server/jobs/local-pagerank.ts';

export interface CrawledSite {
  store: CrawlStore;
  index: TextIndex;
  engine: SearchEngine;
  app: FastifyInstance;
  /** The search app's base URL. */
  url: string;
  /** Pages the crawl stored. */
  stored: number;
  close(): Promise<void>;
}

export interface CrawlOptions {
  /** Host name the site is crawled under (resolved to the served port). */
  host: string;
  /** Where the site is served (`http://127.0.0.1:PORT`). */
  served: string;
  seeds?: string[];
  maxPages?: number;
  sitemaps?: boolean;
}

export async function crawlAndServe(options: CrawlOptions): Promise<CrawledSite> {
  const port = new URL(options.served).port;
  const dir = mkdtempSync(join(tmpdir(), 'lse-crawled-site-'));
  const settings = loadSettings({ env: {}, overrides: { dataDir: dir, crawler: { resolve: { [`${options.host}:80`]: `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 } } });
  const store = await CrawlStore.open(dir);
  const stack = createCrawlStack(store, settings.crawler);
  let stored = 0;
  try {
    const maxPages = options.maxPages ?? 10_000;
    const summary = await stack.crawler.crawl({
      seeds: options.seeds ?? [`http://${options.host}/`],
      scope: parseScope(`host:${options.host}`),
      ordering: 'bfs',
      maxPages,
      maxDepth: 6,
      hostPageBudget: maxPages,
      concurrency: 4,
      ...(options.sitemaps === false ? {} : { sitemaps: {} }),
    });
    stored = summary.stored;
  } finally {
    await stack.close();
  }
  await storeLocalPageRank(store, 0.85, 1e-9);
  const index = await TextIndex.open(join(dir, 'index'), { workers: 0, autoMerge: false });
  await index.rebuild(indexableDocuments(store));
  const engine = new SearchEngine(index, await loadRankSnapshot(store), { blend: 'log-linear', weight: 0.3 });
  await loadSearchData(engine, store);
  const app = await buildApp({ search: engine, logger: false, rateLimitPerMinute: 1_000_000_000 });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    store,
    index,
    engine,
    app,
    url,
    stored,
    close: async () => {
      await app.close();
      await index.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
