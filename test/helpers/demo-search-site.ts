/**
 * A real search site for tests: the demo web served on loopback without latency, its university
 * site crawled into a temporary data directory, a short estimation round, the text index, and the
 * fastify app over them. Building it takes a few seconds, so a test file builds it once (beforeAll).
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadSettings } from '../../config/load-settings.ts';
import { DEMO_LOCAL_HOST, DEMO_SEED_URL, generateDemoWeb, type DemoWeb } from '../../crawler/demo-web/generate.ts';
import { demoWebResolvePins, startDemoWebServer } from '../../crawler/demo-web/server.ts';
import { parseScope } from '../../crawler/scope.ts';
import { loadRankSnapshot, SearchEngine } from '../../indexer/ranking/search-engine.ts';
import { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { buildApp } from '../../server/app.ts';
import { createCrawlStack } from '../../server/cli/crawl-setup.ts';
import { buildIndex } from '../../server/cli/serve-command.ts';
import { newRoundId, runEstimationRound } from '../../server/jobs/estimation-round.ts';

export interface DemoSearchSite {
  /** The search app; not listening unless `listen` was asked for. */
  app: FastifyInstance;
  /** `http://127.0.0.1:PORT` when listening. */
  url?: string;
  store: CrawlStore;
  web: DemoWeb;
  /** Local pages in the index. */
  documents: number;
  close(): Promise<void>;
}

export interface DemoSearchSiteOptions {
  /** Listen on 127.0.0.1 on a free port (for a browser). */
  listen?: boolean;
}

export async function buildDemoSearchSite(options: DemoSearchSiteOptions = {}): Promise<DemoSearchSite> {
  const web = generateDemoWeb();
  const demoServer = await startDemoWebServer(web, { latencyScale: 0, logRequests: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-search-site-'));
  const settings = loadSettings({
    env: {},
    overrides: {
      dataDir,
      crawler: {
        seeds: [DEMO_SEED_URL],
        scope: [`host:${DEMO_LOCAL_HOST}`],
        // The demo web is ours, on loopback: allow it and map every host to it.
        resolve: demoWebResolvePins(demoServer.port),
        allowPrivateNetworks: true,
        // Our own server: no politeness delay, several requests at once.
        delaySeconds: 0,
        perHostConcurrency: 4,
        concurrency: 8,
      },
    },
  });
  const store = await CrawlStore.open(dataDir);
  const stack = createCrawlStack(store, settings.crawler);
  const scope = parseScope(settings.crawler.scope);
  let app: FastifyInstance | undefined;
  let index: Awaited<ReturnType<typeof buildIndex>>['index'] | undefined;
  const close = async () => {
    await app?.close();
    await index?.close();
    await stack.close();
    await store.close();
    await demoServer.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await stack.crawler.crawl({
      seeds: settings.crawler.seeds,
      scope,
      ordering: 'bfs',
      maxPages: 5000,
      maxDepth: 50,
      hostPageBudget: 5000,
      concurrency: 8,
    });
    // A short round is enough for global estimates that differ from the local PageRank.
    const round = await runEstimationRound({ store, stack, settings, scope }, newRoundId(), { selector: settings.estimation.selector, iterations: 3, extra: '0.3n' });
    if (round.state !== 'done') throw new Error(`the estimation round ${round.state}: ${round.error ?? ''}`);
    const built = await buildIndex(store, settings);
    index = built.index;
    app = await buildApp({ search: new SearchEngine(index, await loadRankSnapshot(store), { blend: 'log-linear', weight: 0.3 }), logger: false, siteName: 'Northfield University' });
    const url = options.listen ? await app.listen({ host: '127.0.0.1', port: 0 }) : undefined;
    return { app, url, store, web, documents: built.documents, close };
  } catch (error) {
    await close();
    throw error;
  }
}
