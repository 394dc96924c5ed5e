/**
 * A data directory of the demo web for tests: the demo web served on loopback without latency,
 * its university site crawled into a temporary directory, the text index built. Site helpers
 * (search, admin) build on it; `close()` closes what it opened and deletes the directory.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../../config/load-settings.ts';
import { farOffSchedules } from './far-off-schedules.ts';
import type { Settings } from '../../config/schema.ts';
import { DEMO_LOCAL_HOST, DEMO_SEED_URL, generateDemoWeb, type DemoWeb } from '../../crawler/demo-web/generate.ts';
import { demoWebResolvePins, startDemoWebServer } from '../../crawler/demo-web/server.ts';
import { parseScope } from '../../crawler/scope.ts';
import { CrawlStore } from '../../indexer/store/crawl-store.ts';
import type { TextIndex } from '../../indexer/text-index/text-index.ts';
import { createCrawlStack, rememberCrawlerSettings, type CrawlStack } from '../../server/cli/crawl-setup.ts';
import { buildIndex } from '../../server/cli/serve-command.ts';
import { runEstimationRound } from '../../server/jobs/estimation-round.ts';
import { newJobId } from '../../server/jobs/job-id.ts';

export interface DemoDataDir {
  web: DemoWeb;
  settings: Settings;
  store: CrawlStore;
  stack: CrawlStack;
  index: TextIndex;
  documents: number;
  /** Closes the store, the crawl stack and the demo web; the index too unless `keepIndex` (it was handed on). */
  close(options?: { keepIndex?: boolean }): Promise<void>;
}

export interface DemoDataDirOptions {
  /** Pages to crawl (default: the whole university site). */
  pages?: number;
  /** A short estimation round before indexing. */
  round?: { iterations: number; extra: string };
  /** More settings (server, schedules…), merged over the test defaults. */
  settings?: Record<string, unknown>;
}

export async function buildDemoDataDir(options: DemoDataDirOptions = {}): Promise<DemoDataDir> {
  const web = generateDemoWeb();
  const demoServer = await startDemoWebServer(web, { latencyScale: 0, logRequests: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-demo-data-'));
  const settings = loadSettings({
    env: {},
    overrides: {
      dataDir,
      // The nightly round would fire in a suite run at its minute: tests run schedules on demand.
      schedules: { estimate: farOffSchedules().estimate },
      ...options.settings,
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
        maxPages: options.pages ?? 5000,
      },
    },
  });
  const store = await CrawlStore.open(dataDir);
  const stack = createCrawlStack(store, settings.crawler);
  let index: TextIndex | undefined;
  const close = async ({ keepIndex = false } = {}) => {
    if (!keepIndex) await index?.close();
    await stack.close();
    await store.close();
    await demoServer.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const scope = parseScope(settings.crawler.scope);
    await rememberCrawlerSettings(store, settings.crawler);
    await stack.crawler.crawl({ seeds: settings.crawler.seeds, scope, ordering: 'bfs', maxPages: settings.crawler.maxPages, maxDepth: 50, hostPageBudget: 5000, concurrency: 8 });
    if (options.round) {
      const round = await runEstimationRound({ store, stack, settings, scope }, newJobId('round'), { selector: settings.estimation.selector, ...options.round });
      if (round.state !== 'done') throw new Error(`the estimation round ${round.state}: ${round.error ?? ''}`);
    }
    const built = await buildIndex(store, settings);
    index = built.index;
    return { web, settings, store, stack, index, documents: built.documents, close };
  } catch (error) {
    await close();
    throw error;
  }
}
